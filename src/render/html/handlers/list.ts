import type { Element } from 'hast';
import type { ListNode } from '../../../model/types.js';
import { crossingNote } from '../crossing-note.js';
import { element } from '../element.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a list: `ul`, or `ol` when ordered, one `li` per item.
 *
 * @param node - the list node
 * @param ctx - the page context
 * @returns `<div class="node list" id>` holding the list
 */
export function list(node: ListNode, ctx: PageContext): Element {
  const items = element(
    node.ordered ? 'ol' : 'ul',
    {},
    node.items.map((item) => element('li', {}, [item])),
  );
  return element('div', { id: node.id, className: ['node', 'list'] }, [nodeReasons(node.id, ctx), items, ...crossingNote(node.id, ctx)]);
}
