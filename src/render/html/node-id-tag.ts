import type { Element } from 'hast';
import { element } from './element.js';

/**
 * A node's id shown beside it, as a link to itself: the id a person passes to `canvas replace`,
 * and a fragment to share.
 *
 * @param id - the node id
 * @returns `<a class="nid" href="#id">id</a>`
 */
export function nodeIdTag(id: string): Element {
  return element('a', { className: ['nid'], href: `#${id}` }, [id]);
}
