import { toHtml } from 'hast-util-to-html';
import { CanvasError } from '../model/canvas-error.js';
import { payloadFromInput } from '../model/payload-from-input.js';
import type { CanvasNode } from '../model/types.js';
import { drawFigures } from '../render/figures/draw-figures.js';
import type { FormNode } from './edit-body.js';
import { payloadOfForm } from './payload-of-form.js';

/**
 * Draw a figure the editor holds, before it is saved (docs/serve.md, "Editing"): the payload is
 * checked as the store would check it, then drawn by the page's own drawers (a `diagram` laid out,
 * an `svg` sanitized again), so the preview is the picture the page will show. A `mermaid` figure
 * is drawn by the browser on the page and has no server preview.
 *
 * @param node - a figure as the form gives it
 * @returns `{svg}` (the drawing's markup) or `{error: {code, message, hint}}` (why it cannot be drawn)
 * @throws CanvasError `SERVE_BAD_REQUEST` when the node is not a figure
 */
export async function previewFigure(node: FormNode): Promise<{ svg: string } | { error: ReturnType<CanvasError['toJSON']> } | { source: string }> {
  if (node.type !== 'figure') {
    throw new CanvasError('SERVE_BAD_REQUEST', `only a figure has a preview, not a ${node.type}`, 'send a figure', { rule: 'shape' });
  }
  try {
    const payload = payloadFromInput(payloadOfForm(node));
    if (payload.type !== 'figure' || payload.kind === 'mermaid') return { source: node.source };
    const figure = { ...payload, id: 'preview', v: 1 } as CanvasNode;
    const drawn = (await drawFigures({ ledger: 'preview', schema: '2', children: [figure] })).get('preview');
    if (drawn === undefined) return { source: node.source };
    if (drawn instanceof CanvasError) return { error: drawn.toJSON() };
    return { svg: toHtml(drawn, { space: 'svg' }) };
  } catch (e) {
    if (e instanceof CanvasError) return { error: e.toJSON() };
    throw e;
  }
}
