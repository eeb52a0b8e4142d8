import type { Text } from 'hast';
import type { InlineCode } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { text } from './build.js';

/** Map inline code to its plain text (Basecamp has no inline code). */
export function inlineCode(state: State, node: InlineCode): Text {
  const result = text(node.value.replace(/\r?\n/g, ' '));
  state.patch(node, result);
  return result;
}
