import type { ElementContent } from 'hast';
import { h } from 'hastscript';

/** The id of the page's `main` element, the skip link's target (a hyphen: never a node id). */
export const MAIN_ID = 'page-main';

/**
 * The links a page starts with (`docs/projections.md`, "The page"): a skip link to the canvas
 * itself (`#page-main`), shown only when it has the keyboard focus, and, on a page of a site, a
 * link back to the site's index. A standalone page (`canvas render`) has no index to go back to,
 * so it has no such link.
 *
 * @param index - the index page's address relative to this page (`../index.html`), or undefined
 * @returns the skip link, then the `nav` holding the back link when there is an index
 */
export function topLinks(index: string | undefined): ElementContent[] {
  const skip = h('a', { className: ['skip-link'], href: `#${MAIN_ID}` }, 'Skip to the canvas');
  if (index === undefined) return [skip];
  return [skip, h('nav', { className: ['site-nav'], ariaLabel: 'Site' }, [h('a', { href: index }, [h('span', { ariaHidden: 'true' }, '← '), 'All canvases'])])];
}
