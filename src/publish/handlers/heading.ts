import type { Element } from 'hast';
import type { Heading } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element } from './build.js';

/**
 * Map a heading: `#` to `h1` (Basecamp's one heading), every deeper level to a bold line
 * (`div` > `strong`), as the comment shows section titles.
 */
export function heading(state: State, node: Heading): Element {
  const result = node.depth === 1 ? element('h1', state.all(node)) : element('div', [element('strong', state.all(node))]);
  state.patch(node, result);
  return result;
}
