// The status line (what revision the page shows, and whether it is live) and what changed: the
// commits between two revisions with their authors and reasons, and the diff.
import { el, short } from './dom.js';
import { live, ON_CANVAS, own } from './state.js';
import type { WireChanges, WireCommit, WireDiffEntry } from './wire.js';

const status = el('div', { id: 'live-status', class: 'live-status', role: 'status', 'aria-live': 'polite' });
const news = el('section', { id: 'live-news', class: 'live-news', 'aria-label': 'What changed', hidden: true });
document.body.prepend(status, news);

/** Say what the page is: `connecting`, `live` or `stale`, in words. */
export function setStatus(state: 'connecting' | 'live' | 'stale', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

/** Mark the shared remote's sync as failing or working, and say so when the page is live. */
export function showRemote(): void {
  status.dataset.remote = live.remote?.error ? 'failing' : 'synced';
  if (status.dataset.state === 'live') setStatus('live', liveText());
}

function remoteNote(): string {
  const remote = live.remote;
  if (!remote?.error) return '';
  const since = remote.synced ? ` since ${new Date(remote.synced).toLocaleTimeString()}` : '';
  return ` Not synced with the shared remote${since} (${remote.error}): another machine's changes may be missing.`;
}

/** The status line of a live page. */
export function liveText(): string {
  const here = ON_CANVAS ? `Live: this page shows revision ${short(live.shown)}, the canvas's latest.` : 'Live: this index shows every canvas as it is now.';
  return `${here}${remoteNote()}`;
}

/** The status line of a page that lost the server. */
export function stale(): void {
  setStatus('stale', ON_CANVAS ? `Not live: this page shows revision ${short(live.shown)}, which may be old. Reconnecting…` : 'Not live: this index may be old. Reconnecting…');
}

function commitLine(c: WireCommit): HTMLElement {
  return el('li', {}, [
    el('span', { class: 'edit', text: `${c.op}${c.node ? ` ${c.node}` : ''} by ${c.author}` }),
    ': ',
    el('span', { class: 'reason', text: c.reason }),
    ' ',
    el('code', { class: 'sha', title: c.commit, text: short(c.commit) }),
  ]);
}

/** A diff (docs/diff.md) as a list: each node's change, before and now, and its commits. */
export function diffList(diff: WireDiffEntry[]): HTMLElement {
  return el(
    'ul',
    { class: 'live-diff' },
    diff.map((d) =>
      el('li', {}, [
        el('strong', { text: `${d.change} ${d.node}` }),
        d.before ? el('p', { class: 'live-hint', text: `Before (v${d.before.v}, in ${d.before.parent}):` }) : null,
        d.before ? el('pre', { class: 'before', text: d.before.xml }) : null,
        d.after ? el('p', { class: 'live-hint', text: `Now (v${d.after.v}, in ${d.after.parent}):` }) : null,
        d.after ? el('pre', { class: 'after', text: d.after.xml }) : null,
        el('ol', {}, (d.commits ?? []).map(commitLine)),
      ]),
    ),
  );
}

/** Show what others changed since the page's revision (this page's own writes left out). */
export function showNews(all: WireChanges): void {
  const changes = {
    ...all,
    commits: all.commits.filter((c) => !own.has(c.commit)),
    diff: all.diff.filter((d) => !(d.commits ?? []).every((c) => own.has(c.commit))),
  };
  if (changes.commits.length === 0) return;
  news.replaceChildren(
    el('h2', { text: `Changed since revision ${short(changes.base)}` }),
    el('ol', { class: 'live-commits' }, changes.commits.map(commitLine)),
    changes.diff.length > 0 ? diffList(changes.diff) : el('p', { text: 'No node changed (grants, proposals or a freeze).' }),
    el('button', { type: 'button', class: 'live-dismiss', text: 'Dismiss', onclick: () => (news.hidden = true) }),
  );
  news.hidden = false;
}
