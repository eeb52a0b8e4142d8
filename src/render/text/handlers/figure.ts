import type { FigureNode } from '../../../model/types.js';
import { figureSource } from '../../figure-source.js';
import { crossingLine } from '../crossing-line.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A figure in the prompt: `[id] figure (kind), caption “...”:` and its source indented below.
 *
 * @param node - the figure node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function figure(node: FigureNode, ctx: TextContext): string[] {
  const pad = '  '.repeat(ctx.depth);
  return [
    `${pad}[${node.id}] figure (${node.kind})${node.caption ? `, caption “${isolateBidi(node.caption)}”` : ''}:`,
    ...crossingLine(node.id, ctx),
    ...isolateBidi(figureSource(node))
      .split('\n')
      .map((l) => `${pad}    ${l}`),
  ];
}
