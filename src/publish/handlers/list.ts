import type { Element, ElementContent } from 'hast';
import type { List } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element } from './build.js';

/** Map a list to `ul` or `ol`, without `start` (Basecamp keeps no attribute but `href`). */
export function list(state: State, node: List): Element {
  const items = state.all(node);
  const result = element(node.ordered ? 'ol' : 'ul', state.wrap(items, true) as ElementContent[]);
  state.patch(node, result);
  return result;
}
