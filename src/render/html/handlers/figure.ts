import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { CanvasError } from '../../../model/canvas-error.js';
import type { FigureNode } from '../../../model/types.js';
import { figureLabel } from '../../figure-label.js';
import { figureSource } from '../../figure-source.js';
import { crossingNote } from '../crossing-note.js';
import { nodeIdTag } from '../node-id-tag.js';
import type { PageContext } from '../page-context.js';

/**
 * Draw the figure's picture (design section 8). The drawers (dagre; DOMPurify on jsdom) are loaded
 * only when a page has such a figure, so importing the renderer stays light.
 */
async function drawing(node: FigureNode): Promise<ElementContent> {
  const idPrefix = `${node.id}-`;
  switch (node.kind) {
    case 'mermaid':
      // Escaped source, readable offline; the pinned module draws it in the browser.
      return h('pre', { className: ['mermaid'] }, node.source);
    case 'diagram': {
      const { drawDiagram } = await import('../../figures/draw-diagram.js');
      return h('div', { className: ['drawing'] }, [await drawDiagram(node.source, { idPrefix })]);
    }
    case 'svg': {
      if (!node.svg) return h('pre', { className: ['figure-source'] }, figureSource(node));
      const { sanitizeSvg } = await import('../../figures/sanitize-svg.js');
      return h('div', { className: ['drawing'] }, [await sanitizeSvg(node.svg, { idPrefix })]);
    }
  }
}

/**
 * Render a figure (design section 8): a `diagram` drawn to inline SVG in process, an `svg`
 * sanitized again, a `mermaid` source as `<pre class="mermaid">` for the pinned module. A figure
 * that cannot be drawn shows its source and why, and the rest of the page still renders.
 *
 * @param node - the figure node
 * @param ctx - the page context
 * @returns `<figure class="node figure" id>` with a caption naming the kind
 */
export async function figure(node: FigureNode, ctx: PageContext): Promise<Element> {
  let picture: ElementContent[];
  try {
    picture = [await drawing(node)];
  } catch (e) {
    if (!(e instanceof CanvasError)) throw e;
    picture = [
      h('p', { className: ['figure-error'] }, `This figure could not be drawn (${e.code}): ${e.message}`),
      h('pre', { className: ['figure-source'] }, figureSource(node)),
    ];
  }
  const caption = node.caption ? [h('span', { className: ['figure-kind'] }, `${figureLabel(node.kind)}:`), ' ', node.caption] : [figureLabel(node.kind)];
  return h('figure', { id: node.id, className: ['node', 'figure', `figure-${node.kind}`] }, [
    nodeIdTag(node.id),
    ...picture,
    ...crossingNote(node.id, ctx),
    h('figcaption', caption),
  ]);
}
