import type { LinkNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A link in the prompt: `[id] link: label <href>` (the href as stored; a prompt opens nothing).
 *
 * @param node - the link node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function link(node: LinkNode, ctx: TextContext): string[] {
  return [...indentLines(ctx.depth, `[${node.id}] link: `, `${isolateBidi(node.label)} <${isolateBidi(node.href)}>`), ...crossingLine(node.id, ctx)];
}
