import type { Element } from 'hast';
import type { ListItem } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, text } from './build.js';
import { tightChildren } from './tight-children.js';

/**
 * Map a list item to a tight `li` (paragraphs inline, separated by `<br>`); a GFM task item starts
 * with a ballot box, checked or not, as text.
 */
export function listItem(state: State, node: ListItem): Element {
  const children = tightChildren(state, node);
  if (typeof node.checked === 'boolean') children.unshift(text(node.checked ? '\u2611 ' : '\u2610 '));
  const result = element('li', children);
  state.patch(node, result);
  return result;
}
