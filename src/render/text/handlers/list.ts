import type { ListNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A list in the prompt: `[id] list:` (or `ordered list:`), one line per item.
 *
 * @param node - the list node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function list(node: ListNode, ctx: TextContext): string[] {
  const pad = '  '.repeat(ctx.depth);
  return [
    `${pad}[${node.id}] ${node.ordered ? 'ordered list' : 'list'}:`,
    ...crossingLine(node.id, ctx),
    ...node.items.flatMap((item, i) => indentLines(ctx.depth + 1, node.ordered ? `${i + 1}. ` : '- ', isolateBidi(item))),
  ];
}
