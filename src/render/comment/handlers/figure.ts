import type { PhrasingContent, RootContent } from 'mdast';
import type { FigureNode } from '../../../model/types.js';
import { figureLabel } from '../../figure-label.js';
import { figureSource } from '../../figure-source.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';
import { isolateBidi } from '../../isolate-bidi.js';

/** The info string of each kind's fence. */
const LANG = { diagram: 'text', mermaid: 'mermaid', svg: 'xml' } as const;

/**
 * A figure in the comment (`docs/projections.md`, "The comment"): a comment cannot show the
 * picture, so a label line (the kind and the caption) and the source in a fenced code block; an
 * `svg` figure's source is its markup.
 *
 * @param node - the figure node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function figure(node: FigureNode, ctx: CommentContext): RootContent[] {
  const label: PhrasingContent[] = [{ type: 'strong', children: [{ type: 'text', value: `${figureLabel(node.kind)}${node.caption ? ':' : ''}` }] }];
  if (node.caption) label.push({ type: 'text', value: ` ${node.caption}` });
  return [
    { type: 'paragraph', children: label },
    { type: 'code', lang: LANG[node.kind], value: isolateBidi(figureSource(node)) },
    ...crossingParagraph(node.id, ctx),
  ];
}
