import { canvasLinkTarget } from '../../../model/canvas-link.js';
import type { LinkNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A link in the prompt: `[id] link: label <href>` (the href as stored; a prompt opens nothing); a
 * link to another canvas adds what it names: `[id] link: label <canvas:b7#x1> (canvas b7, node
 * x1)` (docs/links.md, "Canvas links").
 *
 * @param node - the link node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function link(node: LinkNode, ctx: TextContext): string[] {
  const t = canvasLinkTarget(node.href);
  const names = t === null ? '' : t.node === null ? ` (canvas ${t.ledger})` : ` (canvas ${t.ledger}, node ${t.node})`;
  return [...indentLines(ctx.depth, `[${node.id}] link: `, `${isolateBidi(node.label)} <${isolateBidi(node.href)}>${names}`), ...crossingLine(node.id, ctx)];
}
