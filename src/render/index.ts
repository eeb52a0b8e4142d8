/**
 * The declared surface of `task-canvas/render` (docs/library.md, "Entries"): the projections of a
 * snapshot (the page, the comment, the prompt, the done artifact) and the figures they draw.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export { renderComment } from './comment/render-comment.js';
export { type DoneArtifact, doneArtifact, type QuotedNode } from './done/done-artifact.js';
export { renderDone } from './done/render-done.js';
export type { Citation, CitedKind } from './done/evidence-in-reason.js';
export { type DrawDiagramOptions, drawDiagram } from './figures/draw-diagram.js';
export { type DrawExcalidrawOptions, drawExcalidraw } from './figures/draw-excalidraw.js';
export { exportScene } from './figures/excalidraw-export.js';
export { drawFigures, type FigureDrawings } from './figures/draw-figures.js';
export { type SanitizeSvgOptions, sanitizeSvg } from './figures/sanitize-svg.js';
export { type PageAssets, preparePage } from './html/prepare-page.js';
export { type PageOptions, renderPage } from './html/render-page.js';
export { type PromptOptions, renderPrompt } from './text/render-prompt.js';
