// The editor panel: one edit at a time, outside the projection, so updates never touch it. A form
// starts from the canvas tree the server reads at the revision the page shows, never from the page.
import { counterpart } from './controls.js';
import { el, short } from './dom.js';
import { field, reasonField, reasonProblem } from './fields.js';
import { nodeForm } from './forms.js';
import { outcomeView } from './outcome-view.js';
import { refresh } from './page.js';
import { loadSession } from './session.js';
import { canvasPath, live, own } from './state.js';
import { type FormNode, getJson, postJson, type WireOutcome, type WireTree, type WriteBody } from './wire.js';

/** What to edit: the verb, the node (all but insert), the new node's type and place (insert). */
export interface EditSpec {
  op: WriteBody['op'];
  id?: string;
  type?: string;
  /** `after:<id>` or `into:<id|root>`; an insert without one picks its place in the form. */
  anchor?: string;
  pick?: boolean;
  title: string;
  opener: HTMLElement | null;
}

/** The canvas tree at the page's revision (read by the server through the store). */
async function canvasTree(): Promise<WireTree> {
  if (!live.tree || live.tree.revision !== live.shown) live.tree = await getJson<WireTree>(canvasPath(`_canvas?at=${encodeURIComponent(live.shown ?? '')}`));
  return live.tree;
}

function findNode(nodes: FormNode[], id: string): FormNode | null {
  for (const n of nodes) {
    if (n.id === id) return n;
    if (n.type === 'section') {
      const found = findNode(n.children, id);
      if (found) return found;
    }
  }
  return null;
}

function describeNode(n: FormNode): string {
  const words =
    n.type === 'section' ? n.title : n.type === 'link' ? n.label : n.type === 'list' ? n.items[0] : n.type === 'table' ? (n.rows[0] ?? []).join(' | ') : n.type === 'figure' ? (n.caption ?? n.kind) : n.text;
  const line = (words ?? '').split('\n')[0] ?? '';
  return `${n.type} ${n.id}: ${line.length > 40 ? `${line.slice(0, 40)}…` : line}`;
}

function places(nodes: FormNode[], moving: string | undefined): Array<{ value: string; label: string }> {
  const out = [{ value: 'into:root', label: 'first at the top level' }];
  const walk = (list: FormNode[]) => {
    for (const n of list) {
      if (n.id === moving) continue;
      out.push({ value: `after:${n.id}`, label: `after ${describeNode(n)}` });
      if (n.type === 'section') {
        out.push({ value: `into:${n.id}`, label: `first in section ${n.id}: ${n.title}` });
        walk(n.children);
      }
    }
  };
  walk(nodes);
  return out;
}

/** Close the editor, and give the focus back to the control that opened it. */
function closeEditor(): void {
  const editing = live.editing;
  if (!editing) return;
  live.editing = null;
  editing.panel.remove();
  counterpart(editing.opener)?.focus();
}

/** Open the editor for one verb. */
export async function openEditor(spec: EditSpec): Promise<void> {
  closeEditor();
  const t = await canvasTree();
  const base = t.revision;
  const node = spec.id ? findNode(t.canvas.children, spec.id) : null;
  const type = spec.type ?? node?.type;
  const form = spec.op === 'insert' || spec.op === 'replace' ? nodeForm(type, spec.op === 'replace' ? node : null) : null;
  const where =
    spec.op === 'move' || (spec.op === 'insert' && spec.pick)
      ? el(
          'select',
          {},
          places(t.canvas.children, spec.id).map((p) => el('option', { value: p.value, text: p.label })),
        )
      : null;
  const why = reasonField({ required: true, 'aria-describedby': 'live-why-problem' });
  const problem = el('p', { id: 'live-why-problem', class: 'live-problem', 'aria-live': 'polite' });
  const notice = el('p', { class: 'live-notice', 'aria-live': 'polite' });
  const result = el('div', { class: 'live-result' });
  const submit = el('button', { type: 'submit', class: 'live-submit', text: spec.op === 'remove' ? 'Remove' : spec.op === 'move' ? 'Move' : 'Save' });
  const formEl = el('form', { class: 'live-form', novalidate: true }, [
    el('p', { class: 'live-base', text: `Decided against revision ${short(base)}${live.session?.role === 'commenter' ? ' (as a commenter: this becomes a proposal)' : ''}.` }),
    ...(form ? form.fields : []),
    where ? field(spec.op === 'move' ? 'Move to' : 'Insert', where) : null,
    field('Why (one line, required)', why),
    problem,
    el('div', { class: 'live-actions' }, [submit, el('button', { type: 'button', text: 'Cancel', onclick: closeEditor })]),
  ]);
  const panel = el('aside', { id: 'live-editor', class: 'live-editor', role: 'dialog', 'aria-modal': 'false', 'aria-label': spec.title }, [el('h2', { text: spec.title }), notice, formEl, result]);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeEditor();
  });
  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const bad = reasonProblem(why.value);
    problem.textContent = bad ?? '';
    if (bad) {
      why.setAttribute('aria-invalid', 'true');
      why.focus();
      return;
    }
    why.removeAttribute('aria-invalid');
    const body: WriteBody = { op: spec.op, base, why: why.value };
    if (spec.id) body.id = spec.id;
    if (form) body.node = form.value();
    const anchor = where ? where.value : spec.anchor;
    if (anchor) {
      const [k, v] = anchor.split(':');
      if ((k === 'after' || k === 'into') && v !== undefined) body[k] = v;
    }
    submit.disabled = true;
    const o = await postJson<WireOutcome>(canvasPath('_write'), body).catch((err): WireOutcome => ({ error: { code: 'NETWORK', message: String(err), hint: 'is canvas serve still running?' } }));
    submit.disabled = false;
    result.replaceChildren(
      outcomeView(o, async () => {
        await refresh();
        live.tree = null;
        await openEditor(spec);
      }),
    );
    if (o.outcome === 'applied' || o.outcome === 'proposed') {
      if (o.revision) own.add(o.revision);
      formEl.hidden = true;
      result.append(el('button', { type: 'button', class: 'live-close', text: 'Close', onclick: closeEditor }));
      result.querySelector('button')?.focus();
      await loadSession();
    } else {
      result.querySelector<HTMLElement>('button.live-retry')?.focus();
    }
  });
  live.editing = { panel, base, opener: spec.opener, notice };
  document.body.append(panel);
  (formEl.querySelector<HTMLElement>('textarea, input, select') ?? why).focus();
}
