import type { Element } from 'hast';
import type { Code } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, text } from './build.js';

/**
 * Map fenced or indented code to `pre` holding the text alone (no `code`, no language class).
 * Leading blank lines are dropped: an HTML parser drops a line ending right after `<pre>`, so
 * Basecamp would not keep them anyway.
 */
export function code(state: State, node: Code): Element {
  const value = node.value.replace(/^(?:[ \t]*\r?\n)+/, '');
  const result = element('pre', value === '' ? [] : [text(value)]);
  state.patch(node, result);
  return result;
}
