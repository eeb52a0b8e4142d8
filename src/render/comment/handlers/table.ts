import type { RootContent } from 'mdast';
import type { TableNode } from '../../../model/types.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * A table in the comment, unfolded (design section 7: the Markdown table extension is off in a
 * comment): its header line in bold, then one bullet per row, cells joined by ` | `.
 *
 * @param node - the table node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function table(node: TableNode, ctx: CommentContext): RootContent[] {
  const [header = [], ...body] = node.rows;
  const blocks: RootContent[] = [{ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: header.join(' | ') }] }] }];
  if (body.length > 0) {
    blocks.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: body.map((row) => ({
        type: 'listItem',
        spread: false,
        children: [{ type: 'paragraph', children: [{ type: 'text', value: row.join(' | ') }] }],
      })),
    });
  }
  return [...blocks, ...crossingParagraph(node.id, ctx)];
}
