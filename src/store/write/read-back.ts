import { indexNodes } from '../../model/index-nodes.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import type { Canvas, SectionNode } from '../../model/types.js';

/**
 * The document about to be written, as the parser reads it back, for the one-node guard. A write
 * changes the bytes of one element only: the named node's (with its subtree, for a moved
 * section); every other element keeps the bytes it has at the current revision, whose tree was
 * parsed from (or checked against) those bytes. So the named node is parsed back on its own, in
 * a canvas root as in the document, and put in its place; a create parses its whole (root-only)
 * document; a remove and the writes that leave the document as it is add no bytes to read.
 *
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING` when the bytes do not read back
 */
export function readBack(next: Canvas, xml: string, op: string, node: string | null): Canvas {
  if (op === 'create') return parseCanvas(xml, next.ledger);
  const at = node !== null && (op === 'insert' || op === 'replace' || op === 'move') ? indexNodes(next).get(node) : undefined;
  if (!at) return next;
  const alone = serializeCanvas({ ...next, children: [at.node] });
  const back = parseCanvas(alone, next.ledger).children[0];
  if (!back || serializeCanvas({ ...next, children: [back] }) === alone) return next;
  const copy = structuredClone(next);
  const parentList = at.parent === 'root' ? copy.children : (indexNodes(copy).get(at.parent)!.node as SectionNode).children;
  parentList.splice(at.index, 1, back);
  return copy;
}
