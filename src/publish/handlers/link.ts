import type { ElementContent } from 'hast';
import type { Link } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import type { State } from 'mdast-util-to-hast';
import { safeHref } from '../safe-href.js';
import { element, text } from './build.js';

/**
 * The hast for a link to `url` with `children` as its label: an `a` with only `href` when the URL
 * is safe, else the label followed by the destination as text, so nothing is lost and nothing is
 * clickable.
 */
export function linkTo(url: string, children: ElementContent[], label: string): ElementContent[] {
  const href = safeHref(url);
  if (href !== null) return [element('a', children.length > 0 ? children : [text(url)], { href })];
  if (url.trim() === '' || label === url) return children.length > 0 ? children : [text(url)];
  return [...children, text(` (${url})`)];
}

/** Map a link: see {@link linkTo}; a title is dropped (Basecamp keeps only `href`). */
export function link(state: State, node: Link): ElementContent[] {
  return linkTo(node.url, state.all(node), mdastToString(node));
}
