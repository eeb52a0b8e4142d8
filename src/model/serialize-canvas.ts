import { escapeAttribute } from './escape-xml.js';
import { serializeNode } from './serialize-node.js';
import type { Canvas } from './types.js';

/**
 * Serialize a canvas to its canonical bytes (docs/schema.md, docs/canonical.md): UTF-8 without
 * BOM, no XML declaration, LF line ends, two-space indent, one node per line, attributes in
 * schema order, minimal escaping, one final newline. `serializeCanvas(parseCanvas(x))` is
 * idempotent.
 *
 * @param canvas - the tree
 * @returns the canonical text
 */
export function serializeCanvas(canvas: Canvas): string {
  const open = `<canvas ledger="${escapeAttribute(canvas.ledger)}" schema="2">`;
  if (canvas.children.length === 0) return `${open}</canvas>\n`;
  let out = `${open}\n`;
  for (const c of canvas.children) out += serializeNode(c, { depth: 1 });
  return `${out}</canvas>\n`;
}
