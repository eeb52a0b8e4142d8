import type { Element } from 'hast';
import type { Paragraph } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element } from './build.js';

/** Map a paragraph to a `div` (Basecamp's rich text has no `p`). */
export function paragraph(state: State, node: Paragraph): Element {
  const result = element('div', state.all(node));
  state.patch(node, result);
  return result;
}
