import type { RootContent, Text } from 'mdast';
import type { TableNode } from '../../../model/types.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * Cells joined by ` | `, each its own text node, so that each is kept apart when the comment
 * isolates text holding bidirectional controls (docs/projections.md, "Bidirectional text").
 */
function joined(cells: readonly string[]): Text[] {
  return cells.flatMap((cell, i): Text[] =>
    i === 0
      ? [{ type: 'text', value: cell }]
      : [
          { type: 'text', value: ' | ' },
          { type: 'text', value: cell },
        ],
  );
}

/**
 * A table in the comment, unfolded (`docs/projections.md`, "The comment": the Markdown table
 * extension is off in a comment): its header line in bold, then one bullet per row, cells joined by
 * ` | `.
 *
 * @param node - the table node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function table(node: TableNode, ctx: CommentContext): RootContent[] {
  const [header = [], ...body] = node.rows;
  const blocks: RootContent[] = [{ type: 'paragraph', children: [{ type: 'strong', children: joined(header) }] }];
  if (body.length > 0) {
    blocks.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: body.map((row) => ({
        type: 'listItem',
        spread: false,
        children: [{ type: 'paragraph', children: joined(row) }],
      })),
    });
  }
  return [...blocks, ...crossingParagraph(node.id, ctx)];
}
