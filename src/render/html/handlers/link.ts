import type { Element } from 'hast';
import { h } from 'hastscript';
import { type CanvasLinkTarget, canvasLinkTarget } from '../../../model/canvas-link.js';
import type { LinkNode } from '../../../model/types.js';
import { safeHref } from '../../../model/safe-href.js';
import { crossingNote } from '../crossing-note.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/** What a link to another canvas points at, in words: `canvas b7`, `canvas b7, node x1`. */
function targetWords(t: CanvasLinkTarget): string {
  return t.node === null ? `canvas ${t.ledger}` : `canvas ${t.ledger}, node ${t.node}`;
}

/** A link shown as text: its label, its href as code, and why it is no anchor. */
function asText(label: string, href: string, note: string): { content: Array<Element | string>; inert: boolean } {
  return { content: [h('span', { className: ['label'] }, label), ' ', h('code', { className: ['href'] }, href), ' ', h('span', { className: ['inert-note'] }, note)], inert: true };
}

/** The paragraph of a `canvas:` link: an anchor to the other page on a site, text on a standalone page. */
function canvasLink(node: LinkNode, label: string, target: CanvasLinkTarget, ctx: PageContext): { content: Array<Element | string>; inert: boolean } {
  if (ctx.canvasHref === null) return asText(label, node.href, `(${targetWords(target)}; a link on the site's pages, not on a standalone page)`);
  return { content: [h('a', { href: ctx.canvasHref(target) }, label), ' ', h('span', { className: ['inert-note'] }, `(${targetWords(target)})`)], inert: false };
}

/**
 * Render a link (`docs/projections.md`, "What all three say"; docs/links.md, "Canvas links"): an
 * anchor with `rel="noopener noreferrer"` when its scheme is `http`, `https` or `mailto` (judged
 * by {@link safeHref}); a `canvas:<ledger>[#<node>]` link, on a site's page, an anchor to that
 * canvas's page (and node) relative to this one, and on a standalone page its href as code;
 * otherwise the label and the href shown as code, never an anchor.
 *
 * @param node - the link node
 * @param ctx - the page context
 * @returns `<div class="node link" id>` (with `canvas` for a link to a canvas, `inert` when it is
 *   no anchor) holding one paragraph
 */
export function link(node: LinkNode, ctx: PageContext): Element {
  const label = node.label.trim() === '' ? node.href : node.label;
  const target = canvasLinkTarget(node.href);
  const href = target ? null : safeHref(node.href);
  const { content, inert } = target
    ? canvasLink(node, label, target, ctx)
    : href
      ? { content: [h('a', { href, rel: ['noopener', 'noreferrer'] }, label)], inert: false }
      : asText(label, node.href, '(not a web link; shown as text)');
  const classes = ['node', 'link', ...(target ? ['canvas'] : []), ...(inert ? ['inert'] : [])];
  return h('div', { id: node.id, className: classes }, [nodeReasons(node.id, ctx), h('p', content), ...crossingNote(node.id, ctx)]);
}
