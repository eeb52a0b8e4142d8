import type { Element } from 'hast';
import { h } from 'hastscript';
import type { LinkNode } from '../../../model/types.js';
import { safeHref } from '../../../model/safe-href.js';
import { crossingNote } from '../crossing-note.js';
import { nodeReasons } from '../node-reasons.js';
import { nodeIdTag } from '../node-id-tag.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a link (`docs/projections.md`, "What all three say"): an anchor with `rel="noopener
 * noreferrer"` when its scheme is `http`, `https` or `mailto` (judged by {@link safeHref});
 * otherwise the label and the href shown as code, never an anchor.
 *
 * @param node - the link node
 * @param ctx - the page context
 * @returns `<div class="node link" id>` holding one paragraph
 */
export function link(node: LinkNode, ctx: PageContext): Element {
  const href = safeHref(node.href);
  const label = node.label.trim() === '' ? node.href : node.label;
  const content = href
    ? [h('a', { href, rel: ['noopener', 'noreferrer'] }, label)]
    : [h('span', { className: ['label'] }, label), ' ', h('code', { className: ['href'] }, node.href), ' ', h('span', { className: ['inert-note'] }, '(not a web link; shown as text)')];
  return h('div', { id: node.id, className: ['node', 'link', ...(href ? [] : ['inert'])] }, [nodeIdTag(node.id), h('p', content), ...crossingNote(node.id, ctx), ...nodeReasons(node.id, ctx)]);
}
