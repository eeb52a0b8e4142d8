import type { ElementContent } from 'hast';
import type { Html, Parents } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, linesToPhrasing } from './build.js';

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * Map raw HTML in the Markdown to its source as text: escaped by the serializer, shown, never
 * interpreted. A block of HTML becomes a `div` of text lines; inline HTML stays inline.
 */
export function rawHtml(state: State, node: Html, parent: Parents | undefined): ElementContent[] {
  const lines = linesToPhrasing(node.value);
  if (parent && !FLOW_PARENTS.has(parent.type)) return lines;
  const result = element('div', lines);
  state.patch(node, result);
  return [result];
}
