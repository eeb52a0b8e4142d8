import type { Element } from 'hast';
import { h } from 'hastscript';
import type { TableNode } from '../../../model/types.js';
import { crossingNote } from '../crossing-note.js';
import { nodeReasons } from '../node-reasons.js';
import { nodeIdTag } from '../node-id-tag.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a table: the first row as the header (`th scope="col"`), the rest as the body, inside a
 * wrapper that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it).
 *
 * @param node - the table node
 * @param ctx - the page context
 * @returns `<div class="node table" id>` holding the table
 */
export function table(node: TableNode, ctx: PageContext): Element {
  const [header = [], ...body] = node.rows;
  const grid = h('table', [
    h('thead', [h('tr', header.map((cell) => h('th', { scope: 'col' }, cell)))]),
    ...(body.length > 0 ? [h('tbody', body.map((row) => h('tr', row.map((cell) => h('td', cell)))))] : []),
  ]);
  return h('div', { id: node.id, className: ['node', 'table'] }, [
    nodeIdTag(node.id),
    h('div', { className: ['scroll'], tabIndex: 0 }, [grid]),
    ...crossingNote(node.id, ctx),
    ...nodeReasons(node.id, ctx),
  ]);
}
