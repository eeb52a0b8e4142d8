import type { TextNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A text node in the prompt: `[id] text: ...`, verbatim.
 *
 * @param node - the text node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function text(node: TextNode, ctx: TextContext): string[] {
  return [...indentLines(ctx.depth, `[${node.id}] text: `, isolateBidi(node.text)), ...crossingLine(node.id, ctx)];
}
