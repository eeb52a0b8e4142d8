import type { PhrasingContent, RootContent } from 'mdast';
import { type CanvasLinkTarget, canvasLinkTarget } from '../../../model/canvas-link.js';
import type { LinkNode } from '../../../model/types.js';
import { safeHref } from '../../../model/safe-href.js';
import type { CommentContext } from '../comment-context.js';
import { crossingParagraph } from '../crossing-paragraph.js';

/** Percent-encode what would force a `<...>` destination (a space, `<`, `>`), so none is written. */
function plainDestination(href: string): string {
  return href.replace(/[\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A link to another canvas, as text (a comment has no site around it): ``label (canvas `b7`, node `x1`)``. */
function canvasText(label: string, t: CanvasLinkTarget): PhrasingContent[] {
  const node: PhrasingContent[] =
    t.node === null
      ? []
      : [
          { type: 'text', value: ', node ' },
          { type: 'inlineCode', value: t.node },
        ];
  return [{ type: 'text', value: `${label} (canvas ` }, { type: 'inlineCode', value: t.ledger }, ...node, { type: 'text', value: ')' }];
}

/**
 * A link in the comment: a Markdown link when its scheme is `http`, `https` or `mailto` (judged
 * by {@link safeHref}); a link to another canvas as its label and the canvas and node it names
 * (docs/links.md, "Canvas links"); otherwise the label and the href as plain text, never a link.
 *
 * @param node - the link node
 * @param ctx - the comment context
 * @returns the blocks
 */
export function link(node: LinkNode, ctx: CommentContext): RootContent[] {
  const target = canvasLinkTarget(node.href);
  const href = safeHref(node.href);
  const label = node.label.trim() === '' ? node.href : node.label;
  const children: PhrasingContent[] = target
    ? canvasText(label, target)
    : href
      ? [{ type: 'link', url: plainDestination(href), children: [{ type: 'text', value: label }] }]
      : [{ type: 'text', value: `${label} (not a web link; shown as text: ${node.href})` }];
  return [{ type: 'paragraph', children }, ...crossingParagraph(node.id, ctx)];
}
