import type { QuestionNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A question in the prompt: `[id] OPEN QUESTION: ...` (loud: it must not be answered quietly),
 * or `[id] answered question: ...`.
 *
 * @param node - the question node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function question(node: QuestionNode, ctx: TextContext): string[] {
  return [...indentLines(ctx.depth, `[${node.id}] ${node.answered ? 'answered question' : 'OPEN QUESTION'}: `, isolateBidi(node.text)), ...crossingLine(node.id, ctx)];
}
