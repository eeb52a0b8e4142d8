import type { RootContent } from 'mdast';
import type { TextNode } from '../../../model/types.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * A text node in the comment: one paragraph.
 *
 * @param node - the text node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function text(node: TextNode, ctx: CommentContext): RootContent[] {
  return [{ type: 'paragraph', children: [{ type: 'text', value: node.text }] }, ...crossingParagraph(node.id, ctx)];
}
