import type { PhrasingContent, RootContent } from 'mdast';
import { CanvasError } from '../../../model/canvas-error.js';
import type { FigureNode } from '../../../model/types.js';
import { figureLabel } from '../../figure-label.js';
import { figureSource } from '../../figure-source.js';
import { summarizeScene } from '../../figures/excalidraw-summary.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';
import { isolateBidi } from '../../isolate-bidi.js';

/** The info string of each kind's fence. */
const LANG = { diagram: 'text', mermaid: 'mermaid', svg: 'xml' } as const;

/** An Excalidraw sketch's line: its JSON is no reading matter, so its size and where to see it. */
function sceneLine(node: FigureNode, ctx: CommentContext): PhrasingContent[] {
  const summary = summarizeScene(node.source);
  const size = summary instanceof CanvasError ? `a scene that cannot be read (${summary.code})` : `${summary.elements} element${summary.elements === 1 ? '' : 's'}`;
  return [
    { type: 'text', value: ` (${size}), drawn on the canvas page; to open it in Excalidraw: ` },
    { type: 'inlineCode', value: `canvas render ${ctx.snapshot.ledger} --figure ${node.id} --format excalidraw` },
  ];
}

/**
 * A figure in the comment (`docs/projections.md`, "The comment"): a comment cannot show the
 * picture, so a label line (the kind and the caption) and the source in a fenced code block; an
 * `svg` figure's source is its markup. An `excalidraw` figure is its label line alone, with the
 * element count and a pointer to the page (docs/excalidraw.md, "In the comment and the prompt").
 *
 * @param node - the figure node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function figure(node: FigureNode, ctx: CommentContext): RootContent[] {
  const label: PhrasingContent[] = [{ type: 'strong', children: [{ type: 'text', value: `${figureLabel(node.kind)}${node.caption ? ':' : ''}` }] }];
  if (node.caption) label.push({ type: 'text', value: ` ${node.caption}` });
  if (node.kind === 'excalidraw') return [{ type: 'paragraph', children: [...label, ...sceneLine(node, ctx)] }, ...crossingParagraph(node.id, ctx)];
  return [{ type: 'paragraph', children: label }, { type: 'code', lang: LANG[node.kind as keyof typeof LANG], value: isolateBidi(figureSource(node)) }, ...crossingParagraph(node.id, ctx)];
}
