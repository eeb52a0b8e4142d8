import type { Paragraph } from 'mdast';
import { placeName } from '../place-name.js';
import { shortSha } from '../short-sha.js';
import type { CommentContext } from './comment-context.js';

/**
 * The one line a node that crossed between sections carries in the comment (`docs/projections.md`,
 * "What all three say"): the reason of the latest move into its current parent and that commit's
 * short sha.
 *
 * @param id - the node id
 * @param ctx - the comment context
 * @returns `[paragraph]` for a node that crossed, else `[]`
 */
export function crossingParagraph(id: string, ctx: CommentContext): Paragraph[] {
  const c = ctx.crossings.get(id);
  if (!c) return [];
  return [
    {
      type: 'paragraph',
      children: [
        { type: 'strong', children: [{ type: 'text', value: 'Moved' }] },
        { type: 'text', value: ' ' },
        { type: 'inlineCode', value: id },
        { type: 'text', value: ` here from ${placeName(ctx.snapshot.canvas, c.from)}: ${c.reason} ` },
        { type: 'inlineCode', value: shortSha(c.commit) },
      ],
    },
  ];
}
