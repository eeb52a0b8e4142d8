import type { ElementContent } from 'hast';
import type { Image } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { safeHref } from '../safe-href.js';
import { element, text } from './build.js';

/**
 * The hast for an image: a link to it labelled with its alt text (Basecamp shows no `img` sent as
 * HTML), or the alt text alone when the source is not a safe URL.
 */
export function imageTo(url: string, alt: string): ElementContent[] {
  const href = safeHref(url);
  if (href !== null) return [element('a', [text(alt || url)], { href })];
  return [text(alt || 'image')];
}

/** Map an image to a link: see {@link imageTo}. */
export function image(_state: State, node: Image): ElementContent[] {
  return imageTo(node.url, node.alt ?? '');
}
