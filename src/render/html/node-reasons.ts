import type { Element } from 'hast';
import type { HistoryEntry } from '../../model/snapshot.js';
import { formatDate } from '../format-date.js';
import { shortSha } from '../short-sha.js';
import { element } from './element.js';
import type { PageContext } from './page-context.js';

function entry(e: HistoryEntry): Element {
  const proposed = e.proposedBy === undefined ? [] : [' ', element('span', { className: ['proposed'] }, [`(proposed by ${e.proposedBy}${e.proposedWhy === undefined ? '' : `: ${e.proposedWhy}`})`])];
  return element('li', {}, [
    element('span', { className: ['edit'] }, [`${e.op} by ${e.author}, ${formatDate(e.date)}`]),
    ': ',
    element('span', { className: ['reason'] }, [e.reason]),
    ...proposed,
    ' ',
    element('code', { className: ['sha'], title: e.commit }, [shortSha(e.commit)]),
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
    element('details', { className: ['reasons'] }, [
      element('summary', {}, ['Why is this here? ', element('span', { className: ['reason-count'] }, [`(${history.length} ${history.length === 1 ? 'edit' : 'edits'})`])]),
      element('ol', {}, history.map(entry)),
    ]),
  ];
}
