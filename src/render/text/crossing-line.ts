import { isolateBidi } from '../isolate-bidi.js';
import { shortSha } from '../short-sha.js';
import type { TextContext } from './text-context.js';

/**
 * The line a node that crossed between sections carries in the prompt: why it is where it is.
 *
 * @param id - the node id
 * @param ctx - the prompt context
 * @returns one line, or none
 */
export function crossingLine(id: string, ctx: TextContext): string[] {
  const c = ctx.crossings.get(id);
  if (!c) return [];
  return [`${'  '.repeat(ctx.depth)}    (moved here from ${c.from === 'root' ? 'the top level' : `section ${c.from}`} in ${shortSha(c.commit)}: ${isolateBidi(c.reason)})`];
}
