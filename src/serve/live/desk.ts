// The desk on the served index (docs/serve.md, "The desk"): each open question gets Answer, each
// proposal Approve and Reject, for a person whose role on that canvas allows it. An answer is a
// replace of the question (an answered question, or a text) and a decision is the canvas's
// approve or reject, POSTed to the routes every page uses, so the store's verbs decide them with
// the base rule an agent meets: the base is the revision the desk was read at. The form is a
// panel outside `main`, so the index swapping its list as the canvases move keeps it.
import { el } from './dom.js';
import { checkBox, field, reasonField, reasonProblem, textArea } from './fields.js';
import { outcomeView } from './outcome-view.js';
import { live, ON_CANVAS } from './state.js';
import { getJson, postJson, type WireOutcome, type WireSession } from './wire.js';

/** The rank of a role, as the store ranks them. */
const RANK: Record<string, number> = { viewer: 1, commenter: 2, editor: 3, owner: 4 };

/** Each canvas's session on the index, read once per drawing of the desk. */
let sessions = new Map<string, Promise<WireSession | null>>();

/** The open desk form, or null. */
let panel: HTMLElement | null = null;

const routeOf = (ledger: string, route: string) => `/${encodeURIComponent(ledger)}/${route}`;

function sessionOf(ledger: string): Promise<WireSession | null> {
  let s = sessions.get(ledger);
  if (!s) {
    s = getJson<WireSession>(routeOf(ledger, '_session')).catch(() => null);
    sessions.set(ledger, s);
  }
  return s;
}

function closePanel(focus: HTMLElement | null): void {
  panel?.remove();
  panel = null;
  focus?.focus();
}

/** What an item of the desk says it is: its canvas, node or proposal, and the revision it was read at. */
interface Item {
  ledger: string;
  node: string | undefined;
  proposal: string | undefined;
  revision: string;
  text: string;
}

function itemOf(li: HTMLElement): Item {
  return {
    ledger: li.dataset.ledger ?? '',
    node: li.dataset.node,
    proposal: li.dataset.proposal,
    revision: li.dataset.revision ?? '',
    text: li.querySelector('.desk-what')?.textContent ?? '',
  };
}

/**
 * Open the desk's one form: `fields` above the reason, then Send and Cancel; Send checks the
 * reason with the store's rule and POSTs what `send` makes, and the outcome shows in the panel.
 */
async function openPanel(title: string, opener: HTMLElement, item: Item, fields: HTMLElement[], send: (why: string) => Promise<WireOutcome>): Promise<void> {
  closePanel(null);
  live.session = await sessionOf(item.ledger);
  const why = reasonField({ required: true, 'aria-describedby': 'desk-why-problem' });
  const problem = el('p', { id: 'desk-why-problem', class: 'live-problem', 'aria-live': 'polite' });
  const result = el('div', { class: 'desk-result' });
  const form = el('form', { class: 'live-form' }, [
    ...fields,
    field('Reason (one line: why)', why),
    problem,
    el('p', { class: 'live-buttons' }, [
      el('button', { type: 'submit', class: 'live-submit', text: 'Send' }),
      el('button', { type: 'button', class: 'live-close', text: 'Cancel', onclick: () => closePanel(opener) }),
    ]),
  ]);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const wrong = reasonProblem(why.value);
    problem.textContent = wrong ?? '';
    if (wrong) return;
    const outcome = await send(why.value).catch((err: Error) => ({ error: { code: 'NETWORK', message: err.message, hint: 'check that canvas serve still runs, then send again' } }) as WireOutcome);
    result.replaceChildren(outcomeView(outcome, () => closePanel(opener)));
    if (outcome.outcome === 'applied' || outcome.outcome === 'proposed') form.remove();
  });
  panel = el('section', { id: 'desk-editor', class: 'live-editor desk-editor', 'aria-label': title }, [
    el('h2', { text: title }),
    el('p', { class: 'desk-item', text: `${item.ledger}: ${item.text}` }),
    form,
    result,
  ]);
  document.querySelector('main')?.before(panel);
  (panel.querySelector('textarea, input') as HTMLElement | null)?.focus();
}

function answer(li: HTMLElement, opener: HTMLElement): void {
  const item = itemOf(li);
  const text = textArea(item.text, 3);
  const answered = checkBox('Keep it a question, marked answered (else it becomes a text)', true);
  void openPanel('Answer the question', opener, item, [field('The answer, as the node will read', text), answered.wrap], (why) =>
    postJson<WireOutcome>(routeOf(item.ledger, '_write'), {
      op: 'replace',
      id: item.node,
      base: item.revision,
      why,
      node: answered.box.checked ? { type: 'question', text: text.value, answered: true } : { type: 'text', text: text.value },
    }),
  );
}

function decide(li: HTMLElement, opener: HTMLElement, decision: 'approve' | 'reject'): void {
  const item = itemOf(li);
  void openPanel(decision === 'approve' ? 'Approve the proposal' : 'Reject the proposal', opener, item, [], (why) =>
    postJson<WireOutcome>(routeOf(item.ledger, '_decide'), { decision, proposal: item.proposal, why }),
  );
}

/**
 * Give each item of the desk its controls (docs/serve.md, "The desk"): Answer for a question,
 * to a commenter or above on its canvas (a commenter's answer becomes a proposal); Approve and
 * Reject for a proposal, to an editor or owner. Run at start and after every swap of the index.
 */
export async function addDeskControls(): Promise<void> {
  if (ON_CANVAS) return;
  sessions = new Map();
  for (const li of document.querySelectorAll<HTMLElement>('#desk li[data-ledger]')) {
    if (li.querySelector('.live-controls')) continue;
    const session = await sessionOf(li.dataset.ledger ?? '');
    const rank = RANK[session?.role ?? ''] ?? 0;
    const controls = el('p', { class: 'live-controls desk-controls' });
    if (li.dataset.node !== undefined && rank >= RANK.commenter!) {
      const b: HTMLButtonElement = el('button', { type: 'button', text: 'Answer', onclick: () => answer(li, b) });
      controls.append(b);
    }
    if (li.dataset.proposal !== undefined && rank >= RANK.editor!) {
      const yes: HTMLButtonElement = el('button', { type: 'button', text: 'Approve', onclick: () => decide(li, yes, 'approve') });
      const no: HTMLButtonElement = el('button', { type: 'button', text: 'Reject', onclick: () => decide(li, no, 'reject') });
      controls.append(yes, no);
    }
    if (controls.childElementCount > 0) li.append(controls);
  }
}
