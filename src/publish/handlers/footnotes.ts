import type { Element, Text } from 'hast';
import type { FootnoteDefinition, FootnoteReference } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, text } from './build.js';
import { tightChildren } from './tight-children.js';

/** Keep a footnote call as its source text, `[^label]` (Basecamp has no anchors to jump to). */
export function footnoteReference(_state: State, node: FootnoteReference): Text {
  return text(`[^${node.label ?? node.identifier}]`);
}

/** Keep a footnote where it is written, as a `div` starting with `[^label]: `. */
export function footnoteDefinition(state: State, node: FootnoteDefinition): Element {
  const result = element('div', [text(`[^${node.label ?? node.identifier}]: `), ...tightChildren(state, node)]);
  state.patch(node, result);
  return result;
}
