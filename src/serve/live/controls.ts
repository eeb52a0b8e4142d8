// The controls on each node (edit, move, remove, insert after or into), shown to a writer.
import { el } from './dom.js';
import { openEditor } from './editor.js';
import { live, ON_CANVAS } from './state.js';
import { INSERT_TYPES } from './wire.js';

function insertMenu(label: string, anchor: string, opener?: HTMLElement): HTMLElement {
  const pick = el(
    'select',
    { 'aria-label': `Type of the node to insert ${label}` },
    INSERT_TYPES.map((t) => el('option', { value: t, text: t })),
  );
  const go = el('button', {
    type: 'button',
    text: `Insert ${label}`,
    onclick: (e) => void openEditor({ op: 'insert', type: pick.value, anchor, title: `Insert a ${pick.value} ${label}`, opener: opener ?? (e.currentTarget as HTMLElement) }),
  });
  return el('span', { class: 'live-insert' }, [pick, go]);
}

function controlsFor(n: HTMLElement): HTMLElement {
  const id = n.id;
  const btn = (text: string, op: 'replace' | 'move' | 'remove', title: string) =>
    el('button', { type: 'button', text, onclick: (e) => void openEditor({ op, title, id, opener: e.currentTarget as HTMLElement }) });
  const bar = el('div', { class: 'live-controls', role: 'group', 'aria-label': `Edit ${id}` }, [
    btn('Edit', 'replace', `Edit ${id}`),
    btn('Move', 'move', `Move ${id}`),
    btn('Remove', 'remove', `Remove ${id}`),
    insertMenu(`after ${id}`, `after:${id}`),
  ]);
  if (n.classList.contains('section')) bar.append(insertMenu(`into ${id}`, `into:${id}`));
  return bar;
}

/** Give every node of the page its controls, once, when this session may write. */
export function addControls(): void {
  const session = live.session;
  if (!ON_CANVAS || !session?.author || !session.role || session.role === 'viewer') return;
  for (const n of document.querySelectorAll<HTMLElement>('main .node[id]')) {
    if (n.querySelector(':scope > .live-controls')) continue;
    const heading = n.querySelector(':scope > h2, :scope > h3');
    const bar = controlsFor(n);
    if (heading) heading.after(bar);
    else n.append(bar);
  }
  const main = document.querySelector('main');
  if (main && !document.getElementById('live-top')) main.before(el('div', { id: 'live-top', class: 'live-controls' }, [insertMenu('at the top', 'into:root')]));
}

/**
 * The control the editor was opened from, or, when a live update redrew its node meanwhile, the
 * control of the same text in that node's redrawn controls: a keyboard user's focus comes back
 * to where it was, not to the page's start.
 */
export function counterpart(opener: HTMLElement | null): HTMLElement | null {
  if (!opener || opener.isConnected) return opener;
  const id = opener.closest('[id]')?.id;
  const controls = id ? document.getElementById(id)?.querySelector(':scope > .live-controls') : null;
  return [...(controls?.querySelectorAll('button') ?? [])].find((b) => b.textContent === opener.textContent) ?? null;
}
