import type { Element } from 'hast';
import type { ThematicBreak } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, text } from './build.js';

/** The line a thematic break shows as (Basecamp has no `hr`). */
const RULE = '\u2014\u2014\u2014';

/** Map a thematic break (`---`) to a line of three em dashes. */
export function thematicBreak(state: State, node: ThematicBreak): Element {
  const result = element('div', [text(RULE)]);
  state.patch(node, result);
  return result;
}
