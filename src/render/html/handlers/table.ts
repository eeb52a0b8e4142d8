import type { Element } from 'hast';
import type { TableNode } from '../../../model/types.js';
import { crossingNote } from '../crossing-note.js';
import { element } from '../element.js';
import { nodeReasons } from '../node-reasons.js';
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
  const grid = element('table', {}, [
    element('thead', {}, [
      element(
        'tr',
        {},
        header.map((cell) => element('th', { scope: 'col' }, [cell])),
      ),
    ]),
    ...(body.length > 0
      ? [
          element(
            'tbody',
            {},
            body.map((row) =>
              element(
                'tr',
                {},
                row.map((cell) => element('td', {}, [cell])),
              ),
            ),
          ),
        ]
      : []),
  ]);
  return element('div', { id: node.id, className: ['node', 'table'] }, [nodeReasons(node.id, ctx), element('div', { className: ['scroll'], tabIndex: 0 }, [grid]), ...crossingNote(node.id, ctx)]);
}
