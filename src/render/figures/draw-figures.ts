import type { Element } from 'hast';
import { CanvasError } from '../../model/canvas-error.js';
import type { Canvas, CanvasNode, FigureNode } from '../../model/types.js';

/**
 * What the page shows for each figure that is drawn before rendering, by figure id: the picture
 * (an `svg` hast element), or the CanvasError that kept it from being drawn (the page then shows
 * the source and why). Only `diagram` and `excalidraw` figures and `svg` figures that hold an SVG are in it: a
 * `mermaid` figure is drawn by the browser and needs nothing here.
 */
export type FigureDrawings = ReadonlyMap<string, Element | CanvasError>;

/** Every figure of the tree that has a picture to draw, in document order. */
function drawable(nodes: readonly CanvasNode[], out: FigureNode[] = []): FigureNode[] {
  for (const n of nodes) {
    if (n.type === 'section') drawable(n.children, out);
    else if (n.type === 'figure' && (n.kind === 'diagram' || n.kind === 'excalidraw' || (n.kind === 'svg' && n.svg))) out.push(n);
  }
  return out;
}

type Drawable = FigureNode & { kind: 'diagram' | 'svg' | 'excalidraw' };

/** Draw one figure; the drawers (dagre; roughjs; DOMPurify on jsdom) load only when a canvas has one. */
async function draw(node: Drawable): Promise<Element> {
  const idPrefix = `${node.id}-`;
  if (node.kind === 'diagram') {
    const { drawDiagram } = await import('./draw-diagram.js');
    return drawDiagram(node.source, { idPrefix });
  }
  if (node.kind === 'excalidraw') {
    const { drawExcalidraw } = await import('./draw-excalidraw.js');
    return drawExcalidraw(node.source, node.caption === undefined ? {} : { label: node.caption });
  }
  const { sanitizeSvg } = await import('./sanitize-svg.js');
  return sanitizeSvg(node.svg!, { idPrefix });
}

/**
 * Draw a canvas's figures ahead of rendering (`docs/projections.md`, "The page"), the one
 * asynchronous step of the page: a `diagram` laid out and drawn to SVG in process, an
 * `excalidraw` scene drawn with roughjs in process (docs/excalidraw.md), an `svg` sanitized again, each with its ids prefixed by `<node id>-`. One figure at a time, in document
 * order, so the sanitizer's one window is never shared. A figure that cannot be drawn is recorded
 * with its CanvasError and the others are still drawn; a drawer that fails with anything else (a
 * bug, a broken install) is recorded as `FIGURE_NOT_DRAWN` naming the figure.
 *
 * @param canvas - the canvas tree (a snapshot's `canvas`)
 * @returns the drawings by figure id, for `renderPage`'s `figures`
 */
export async function drawFigures(canvas: Canvas): Promise<FigureDrawings> {
  const out = new Map<string, Element | CanvasError>();
  for (const node of drawable(canvas.children)) {
    try {
      out.set(node.id, await draw(node as Drawable));
    } catch (e) {
      out.set(
        node.id,
        e instanceof CanvasError
          ? e
          : new CanvasError(
              'FIGURE_NOT_DRAWN',
              `figure ${node.id} (${node.kind}) could not be drawn: ${(e as Error)?.message ?? String(e)}`,
              'this is a bug or a broken install: run npm ci, then report it with the figure',
              {
                node: node.id,
                kind: node.kind,
              },
            ),
      );
    }
  }
  return out;
}
