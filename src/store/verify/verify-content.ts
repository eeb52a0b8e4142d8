import type { CanvasError } from '../../model/canvas-error.js';
import { indexNodes } from '../../model/index-nodes.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { Canvas } from '../../model/types.js';
import { checkFigures } from '../write/check-figures.js';
import type { Report } from './verify-authority.js';

/**
 * Check a revision's document with the write path's own content checks, beyond the schema
 * (docs/store.md, "Verify"): every figure that is new or changed since the previous revision
 * must pass the check a write would have run (a `diagram` source parses, an `svg` passes the
 * sanitizer unchanged, DOMPurify on jsdom, loaded only when an SVG figure is met). Figures that
 * did not change were checked at the revision that wrote them, so each figure is checked once.
 *
 * @param before - the previous revision's document, or null for a create
 * @param after - this revision's document (already schema-valid)
 * @param report - receives `content` violations with `DIAGRAM_SYNTAX` or `UNSAFE_SVG`
 */
export async function checkContent(before: Canvas | null, after: Canvas, report: Report): Promise<void> {
  const previous = before ? indexNodes(before) : new Map();
  for (const [id, { node }] of indexNodes(after)) {
    if (node.type !== 'figure') continue;
    const old = previous.get(id)?.node;
    // The same object is the same node (a top-level node whose text did not change is parsed once).
    if (old === node || (old && serializeNode(old) === serializeNode(node))) continue;
    try {
      await checkFigures(node);
    } catch (e) {
      report('content', `figure ${id} would be refused at write time: ${(e as Error).message}`, { code: (e as CanvasError).code });
    }
  }
}
