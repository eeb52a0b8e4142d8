import type { TableNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import { indentLines } from '../indent-lines.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A table in the prompt: `[id] table (first row is the header):`, one line per row, cells
 * joined by ` | `.
 *
 * @param node - the table node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function table(node: TableNode, ctx: TextContext): string[] {
  return [
    `${'  '.repeat(ctx.depth)}[${node.id}] table (first row is the header):`,
    ...crossingLine(node.id, ctx),
    ...node.rows.flatMap((row) => indentLines(ctx.depth + 1, '| ', `${row.map(isolateBidi).join(' | ')} |`)),
  ];
}
