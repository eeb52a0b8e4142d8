import type { Element } from 'hast';
import { h } from 'hastscript';
import type { HistoryEntry } from '../../model/snapshot.js';
import { formatDate } from '../format-date.js';
import { shortSha } from '../short-sha.js';
import type { PageContext } from './page-context.js';

function entry(e: HistoryEntry): Element {
  const proposed = e.proposedBy === undefined ? [] : [' ', h('span', { className: ['proposed'] }, `(proposed by ${e.proposedBy}${e.proposedWhy === undefined ? '' : `: ${e.proposedWhy}`})`)];
  return h('li', [
    h('span', { className: ['edit'] }, `${e.op} by ${e.author}, ${formatDate(e.date)}`),
    ': ',
    h('span', { className: ['reason'] }, e.reason),
    ...proposed,
    ' ',
    h('code', { className: ['sha'], title: e.commit }, shortSha(e.commit)),
  ]);
}

/**
 * A node's reasons, one click away (`docs/projections.md`, "Why is this here?"): a
 * `<details class="reasons">` whose summary says how many commits named the node and whose list
 * holds each of them, oldest first: operation, author, date, reason (and the proposer, for an
 * approved proposal) and short sha. It works without a script.
 *
 * @param id - the node id
 * @param ctx - the page context (its snapshot's history)
 * @returns the `details` element, or `[]` when the snapshot has no history for the node
 */
export function nodeReasons(id: string, ctx: PageContext): Element[] {
  const history = Object.hasOwn(ctx.snapshot.history, id) ? ctx.snapshot.history[id]! : [];
  if (history.length === 0) return [];
  return [
    h('details', { className: ['reasons'] }, [
      h('summary', ['Why is this here? ', h('span', { className: ['reason-count'] }, `(${history.length} ${history.length === 1 ? 'edit' : 'edits'})`)]),
      h('ol', history.map(entry)),
    ]),
  ];
}
