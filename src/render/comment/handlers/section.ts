import type { RootContent, Text } from 'mdast';
import type { SectionNode } from '../../../model/types.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * A section in the comment: its title as a bold line, then its children (a comment has no
 * headings). A nested section's line names its parent too (`Parent › Title`), so the nesting
 * still reads in a flat comment.
 *
 * @param node - the section
 * @param ctx - the comment context
 * @returns the blocks
 */
export function section(node: SectionNode, ctx: CommentContext): RootContent[] {
  const titles = [...ctx.titles, node.title];
  return [
    {
      type: 'paragraph',
      children: [
        {
          type: 'strong',
          children: titles.flatMap((t, i): Text[] =>
            i === 0
              ? [{ type: 'text', value: t }]
              : [
                  { type: 'text', value: ' › ' },
                  { type: 'text', value: t },
                ],
          ),
        },
      ],
    },
    ...crossingParagraph(node.id, ctx),
    ...ctx.renderChildren(node.children, titles),
  ];
}
