import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Snapshot } from '../../model/snapshot.js';
import { describeEdit } from '../describe-edit.js';
import { shortSha } from '../short-sha.js';

/**
 * The page header (`docs/projections.md`, "The page"): the ledger id, the revision rendered, the
 * frozen marker ("frozen at <revision>: <reason>") when the canvas was frozen, and the last edit
 * with its author, op, node, date and reason.
 *
 * @param snapshot - the snapshot rendered
 * @returns the `header` element
 */
export function pageHeader(snapshot: Snapshot): Element {
  const facts: ElementContent[] = [
    h('div', [h('dt', 'Revision'), h('dd', [h('code', { className: ['revision'] }, snapshot.revision)])]),
  ];
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
  const frozen = snapshot.frozen
    ? [
        h('p', { className: ['frozen'] }, [
          h('strong', 'Frozen.'),
          ' This canvas was frozen at ',
          h('code', snapshot.frozen.commit),
          `: ${snapshot.frozen.reason}`,
        ]),
      ]
    : [];
  return h('header', { className: ['masthead'] }, [
    h('p', { className: ['kicker'] }, 'Canvas'),
    h('h1', snapshot.ledger),
    h('dl', { className: ['facts'] }, facts),
    ...frozen,
  ]);
}
