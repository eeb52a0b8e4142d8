// The form of a table: a grid of one-line inputs, rows and columns added and removed.
import { el } from './dom.js';
import { textInput } from './fields.js';
import type { NodeForm } from './forms.js';

/** The form of a table starting from its rows (the first is the header). */
export function tableForm(rows: string[][]): NodeForm {
  let grid = rows.map((r) => [...r]);
  const holder = el('div', { class: 'live-table' });
  const read = () => {
    grid = [...holder.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('input')].map((i) => i.value));
  };
  const draw = () => {
    const body = grid.map((row, ri) =>
      el(
        'tr',
        {},
        row.map((cell, ci) => {
          const i = textInput(cell);
          i.setAttribute('aria-label', `${ri === 0 ? 'header' : `row ${ri}`}, column ${ci + 1}`);
          return el('td', {}, [i]);
        }),
      ),
    );
    const act = (text: string, f: () => void) =>
      el('button', {
        type: 'button',
        text,
        onclick: () => {
          read();
          f();
          draw();
        },
      });
    holder.replaceChildren(
      el('table', {}, [el('tbody', {}, body)]),
      el('div', { class: 'live-actions' }, [
        act('Add row', () => {
          grid.push((grid[0] ?? []).map(() => ''));
        }),
        act('Remove last row', () => {
          if (grid.length > 1) grid.pop();
        }),
        act('Add column', () => {
          for (const r of grid) r.push('');
        }),
        act('Remove last column', () => {
          if ((grid[0]?.length ?? 0) > 2) for (const r of grid) r.pop();
        }),
      ]),
    );
  };
  draw();
  return {
    fields: [holder],
    value: () => {
      read();
      return { type: 'table', rows: grid };
    },
  };
}
