/**
 * The declared surface of `task-canvas/import` (docs/library.md, "Entries"): Markdown decision records to a canvas.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export { type ImportedNode, type ImportRequest, type ImportResult, importMarkdown } from './import-markdown.js';
export type { Flattening } from './import-plan.js';
