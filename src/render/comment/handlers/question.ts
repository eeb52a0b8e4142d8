import type { RootContent } from 'mdast';
import type { QuestionNode } from '../../../model/types.js';
import { questionMarker } from '../../question-marker.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/**
 * A question in the comment (`docs/projections.md`, "The comment"): its marker in bold, its id, its
 * text.
 *
 * @param node - the question node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function question(node: QuestionNode, ctx: CommentContext): RootContent[] {
  return [
    {
      type: 'paragraph',
      children: [
        { type: 'strong', children: [{ type: 'text', value: questionMarker(node) }] },
        { type: 'text', value: ' ' },
        { type: 'inlineCode', value: node.id },
        { type: 'text', value: `: ${node.text}` },
      ],
    },
    ...crossingParagraph(node.id, ctx),
  ];
}
