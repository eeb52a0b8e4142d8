import type { RootContent } from 'mdast';
import type { ListNode } from '../../../model/types.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * A list in the comment: a tight list, numbered when the node is ordered.
 *
 * @param node - the list node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function list(node: ListNode, ctx: CommentContext): RootContent[] {
  return [
    {
      type: 'list',
      ordered: node.ordered,
      spread: false,
      children: node.items.map((item) => ({
        type: 'listItem',
        spread: false,
        children: [{ type: 'paragraph', children: [{ type: 'text', value: item }] }],
      })),
    },
    ...crossingParagraph(node.id, ctx),
  ];
}
