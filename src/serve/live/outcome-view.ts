// A write's answer in words: one of the four outcomes, or the refusal, with what to do next.
import { el, short } from './dom.js';
import { diffList } from './status.js';
import type { WireOutcome } from './wire.js';

/**
 * The view of an outcome.
 *
 * @param o - the server's answer
 * @param retry - what the conflict's button does: take the new version and decide again
 */
export function outcomeView(o: WireOutcome, retry: () => unknown): HTMLElement {
  const box = el('div', { class: `live-outcome ${o.outcome ?? 'error'}`, role: 'alert' });
  if (o.outcome === 'applied') {
    box.append(el('p', { text: `Applied: ${o.node ?? ''} at revision ${short(o.revision)}.` }));
    if (o.diff && o.diff.length > 0) box.append(el('p', { text: 'Also changed since the revision you edited:' }), diffList(o.diff));
  } else if (o.outcome === 'proposed') {
    box.append(el('p', { text: `Proposed: ${o.proposalId}. An editor or owner of this canvas decides it.` }));
  } else if (o.outcome === 'conflict') {
    box.append(
      el('p', { text: `Conflict: ${o.node ?? 'the canvas'} changed since revision ${short(o.expectedRevision)}; nothing was written. Its changes since then, with their reasons:` }),
      diffList(o.diff ?? []),
      el('button', { type: 'button', class: 'live-retry', text: 'Take the new version and decide again', onclick: retry }),
    );
  } else if (o.outcome === 'rejected') {
    box.append(el('p', { text: `Rejected (${o.code}): ${o.reason}` }), el('p', { class: 'live-hint', text: `Fix: ${o.hint}` }));
  } else {
    const e = o.error ?? { code: 'INTERNAL', message: 'no answer', hint: '' };
    box.append(el('p', { text: `Refused (${e.code}): ${e.message}` }), el('p', { class: 'live-hint', text: e.hint }));
  }
  return box;
}
