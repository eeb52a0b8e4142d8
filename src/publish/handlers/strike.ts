import type { Element } from 'hast';
import type { Delete } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element } from './build.js';

/** Map GFM strikethrough (`~~x~~`, mdast `delete`) to `strike`. */
export function strike(state: State, node: Delete): Element {
  const result = element('strike', state.all(node));
  state.patch(node, result);
  return result;
}
