// The proposals an editor or owner of this canvas may decide, each with its reason field.
import { el } from './dom.js';
import { field, reasonField, reasonProblem } from './fields.js';
import { outcomeView } from './outcome-view.js';
import { loadSession } from './session.js';
import { canvasPath, live, own } from './state.js';
import { postJson, type WireOutcome, type WireProposal } from './wire.js';

function proposalItem(p: WireProposal): HTMLElement {
  const why = reasonField({ 'aria-label': `Why decide proposal ${p.id}` });
  const out = el('div', { class: 'live-result' });
  const decide = (decision: 'approve' | 'reject') => async () => {
    const bad = reasonProblem(why.value);
    if (bad) {
      out.replaceChildren(el('p', { class: 'live-problem', text: bad }));
      why.focus();
      return;
    }
    const o = await postJson<WireOutcome>(canvasPath('_decide'), { decision, proposal: p.id, why: why.value });
    if (o.revision) own.add(o.revision);
    live.decided = outcomeView(o, () => {});
    proposalsView();
    await loadSession();
  };
  return el('li', { class: 'live-proposal' }, [
    el('p', {}, [el('strong', { text: `${p.op} ${p.node ?? '(new node)'}` }), ` by ${p.proposedBy}: `, el('span', { class: 'reason', text: p.why })]),
    p.payload ? el('pre', { text: p.payload }) : null,
    field('Why', why),
    el('div', { class: 'live-actions' }, [el('button', { type: 'button', text: 'Approve', onclick: decide('approve') }), el('button', { type: 'button', text: 'Reject', onclick: decide('reject') })]),
    out,
  ]);
}

/**
 * Draw the pending proposals above the canvas. The outcome of this page's last decision is drawn
 * above the list, not in the decided proposal's item, which the next redraw removes (the proposal
 * is no longer pending), so the editor still reads what became of it, the list empty or not.
 */
export function proposalsView(): void {
  const box = document.getElementById('live-proposals') ?? el('section', { id: 'live-proposals', class: 'live-proposals', 'aria-label': 'Pending proposals' });
  const open = live.session?.proposals ?? [];
  if (open.length === 0 && !live.decided) {
    box.remove();
    return;
  }
  const parts = [el('h2', { text: `Pending proposals (${open.length})` }), live.decided, open.length === 0 ? null : el('ul', {}, open.map(proposalItem))];
  box.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  if (!box.isConnected) document.querySelector('main')?.before(box);
}
