import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { canvasSummary } from '../../model/canvas-summary.js';
import { endingLine } from '../../model/ending-line.js';
import type { Snapshot } from '../../model/snapshot.js';
import { describeEdit } from '../describe-edit.js';
import { shortSha } from '../short-sha.js';

/**
 * The page header (`docs/projections.md`, "The page"): the ledger id and the canvas's summary
 * (docs/projections.md, "The summary"), the revision rendered, the
 * latest ending ("frozen at <sha>: <reason>", "abandoned at <sha>: <reason>", with "; edited since"
 * when the document changed after it: docs/store.md, "Endings"), and the last edit with its
 * author, op, node, date and reason.
 *
 * @param snapshot - the snapshot rendered
 * @returns the `header` element
 */
export function pageHeader(snapshot: Snapshot): Element {
  const facts: ElementContent[] = [h('div', [h('dt', 'Revision'), h('dd', [h('code', { className: ['revision'] }, snapshot.revision)])])];
  const last = snapshot.lastEdit;
  if (last) {
    facts.push(
      h('div', [
        h('dt', 'Last edit'),
        h('dd', { className: ['last-edit'] }, [
          h('span', { className: ['edit'] }, describeEdit(last)),
          ': ',
          h('span', { className: ['reason'] }, last.reason),
          ' ',
          h('code', { className: ['sha'], title: last.commit }, shortSha(last.commit)),
        ]),
      ]),
    );
  }
  const ending = snapshot.ending;
  const words = ending ? endingLine(ending) : null;
  const frozen =
    ending && words ? [h('p', { className: [ending.kind] }, [h('strong', ending.kind === 'frozen' ? 'Frozen.' : 'Abandoned.'), ` This canvas was ${words.lead}`, h('code', ending.commit), words.tail])] : [];
  // The summary tells canvases apart beside the ledger id (docs/projections.md, "The summary"); a
  // cut one carries the whole line as its hover title.
  const summary = canvasSummary(snapshot.canvas);
  return h('header', { className: ['masthead'] }, [
    h('p', { className: ['kicker'] }, 'Canvas'),
    h('h1', snapshot.ledger),
    ...(summary ? [h('p', { className: ['canvas-summary'], ...(summary.cut ? { title: summary.full } : {}) }, summary.text)] : []),
    h('dl', { className: ['facts'] }, facts),
    ...frozen,
  ]);
}
