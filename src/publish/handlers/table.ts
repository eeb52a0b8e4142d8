import type { ElementContent } from 'hast';
import type { Table, TableRow } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { element, KEEP_WITH_NEXT, text } from './build.js';

/** The text between two cells of an unfolded table row. */
const CELL_SEPARATOR = ' | ';

function cells(state: State, row: TableRow): ElementContent[] {
  const out: ElementContent[] = [];
  row.children.forEach((cell, i) => {
    if (i > 0) out.push(text(CELL_SEPARATOR));
    out.push(...state.all(cell));
  });
  return out;
}

/**
 * Unfold a GFM table (Basecamp's rich text has none): the header row as a bold line, then one
 * bullet per body row, cells separated by {@link CELL_SEPARATOR}.
 */
export function table(state: State, node: Table): ElementContent[] {
  const [head, ...rows] = node.children;
  const out: ElementContent[] = [];
  if (head) {
    const line = element('div', [element('strong', cells(state, head))]);
    if (rows.length > 0) KEEP_WITH_NEXT.add(line);
    out.push(line);
  }
  if (rows.length > 0) {
    out.push(
      text('\n'),
      element(
        'ul',
        state.wrap(
          rows.map((row) => element('li', cells(state, row))),
          true,
        ) as ElementContent[],
      ),
    );
  }
  return out;
}
