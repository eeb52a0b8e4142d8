import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { CanvasError } from '../../../model/canvas-error.js';
import type { FigureNode } from '../../../model/types.js';
import { figureLabel } from '../../figure-label.js';
import { figureSource } from '../../figure-source.js';
import { crossingNote } from '../crossing-note.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/**
 * A box that may scroll sideways (a drawing or a source wider than the screen): focusable, so a
 * keyboard can scroll it too.
 */
const SCROLLS = { tabIndex: 0 };

/** The figure's picture: the Mermaid source for the browser, or the drawing made beforehand. */
function picture(node: FigureNode, ctx: PageContext): ElementContent[] {
  // Escaped source, readable offline; the pinned module draws it in the browser.
  if (node.kind === 'mermaid') return [h('pre', { className: ['mermaid'], ...SCROLLS }, node.source)];
  if (node.kind === 'svg' && !node.svg) return [h('pre', { className: ['figure-source'], ...SCROLLS }, figureSource(node))];
  const drawn = ctx.figures.get(node.id);
  if (drawn === undefined) {
    throw new CanvasError('USAGE', `figure ${node.id} has no drawing among the figures given to renderPage`, "draw the snapshot's figures with drawFigures (or preparePage) and pass them", {
      node: node.id,
    });
  }
  if (drawn instanceof CanvasError) {
    return [h('p', { className: ['figure-error'] }, `This figure could not be drawn (${drawn.code}): ${drawn.message}`), h('pre', { className: ['figure-source'], ...SCROLLS }, figureSource(node))];
  }
  return [h('div', { className: ['drawing'], ...SCROLLS }, [drawn])];
}

/**
 * Render a figure (`docs/projections.md`, "The page"): a `diagram`, `excalidraw` or `svg` as the drawing made by
 * `drawFigures`, a `mermaid` source as `<pre class="mermaid">` for the pinned module. A figure that
 * could not be drawn shows its source and why, and the rest of the page still renders.
 *
 * @param node - the figure node
 * @param ctx - the page context (its `figures`)
 * @returns `<figure class="node figure" id>` with a caption naming the kind
 * @throws CanvasError `USAGE` when a `diagram`, `excalidraw` or `svg` figure has no entry in `ctx.figures`
 */
export function figure(node: FigureNode, ctx: PageContext): Element {
  const caption = node.caption ? [h('span', { className: ['figure-kind'] }, `${figureLabel(node.kind)}:`), ' ', node.caption] : [figureLabel(node.kind)];
  return h('figure', { id: node.id, className: ['node', 'figure', `figure-${node.kind}`] }, [
    nodeReasons(node.id, ctx),
    // The caption stays with the picture (a figcaption is its figure's first or last child), so
    // the note of a crossing goes above the picture.
    ...crossingNote(node.id, ctx),
    ...picture(node, ctx),
    h('figcaption', caption),
  ]);
}
