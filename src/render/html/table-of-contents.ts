import type { Element } from 'hast';
import { h } from 'hastscript';
import type { Canvas, SectionNode } from '../../model/types.js';

/** A canvas with at least this many sections (nested ones counted) gets a table of contents. */
const CONTENTS_FROM = 4;

/**
 * The page's table of contents (`docs/projections.md`, "The page"): when the canvas has at least
 * {@link CONTENTS_FROM} sections, a `nav` with `id="page-contents"` listing every section's title
 * as a link to it, a nested section under its parent, in document order. The id holds a hyphen,
 * which no node id does, so it can never clash with a node's element.
 *
 * @param canvas - the tree
 * @returns the `nav` element, or null for a canvas with fewer sections
 */
export function tableOfContents(canvas: Canvas): Element | null {
  const top = canvas.children.filter((n): n is SectionNode => n.type === 'section');
  const nested = (s: SectionNode): SectionNode[] => s.children.filter((n): n is SectionNode => n.type === 'section');
  const count = top.reduce((n, s) => n + 1 + nested(s).length, 0);
  if (count < CONTENTS_FROM) return null;
  const item = (s: SectionNode): Element => {
    const inner = nested(s);
    return h('li', [h('a', { href: `#${s.id}` }, s.title), ...(inner.length > 0 ? [h('ol', inner.map(item))] : [])]);
  };
  return h('nav', { id: 'page-contents', className: ['contents'], ariaLabel: 'Contents' }, [h('h2', 'Contents'), h('ol', top.map(item))]);
}
