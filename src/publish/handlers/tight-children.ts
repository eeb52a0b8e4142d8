import type { ElementContent } from 'hast';
import type { FootnoteDefinition, ListItem, RootContent } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, text } from './build.js';

/**
 * The content of a container that Basecamp shows tight (a list item, a footnote): each paragraph's
 * phrasing inline, paragraphs separated by `<br>`, other blocks (a nested list, code, a quote) as
 * they are.
 *
 * @param state - the mdast-util-to-hast state
 * @param node - the container
 * @returns hast content for inside an `li` or a `div`
 */
export function tightChildren(state: State, node: ListItem | FootnoteDefinition): ElementContent[] {
  const out: ElementContent[] = [];
  let previous: RootContent['type'] | null = null;
  for (const child of node.children) {
    if (child.type === 'paragraph') {
      if (previous === 'paragraph') out.push(element('br'));
      out.push(...state.all(child));
    } else {
      const result = state.one(child, node);
      if (result === undefined) continue;
      if (out.length > 0) out.push(text('\n'));
      out.push(...(Array.isArray(result) ? result : [result]));
    }
    previous = child.type;
  }
  return out;
}
