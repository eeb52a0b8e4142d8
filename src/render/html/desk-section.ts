import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Desk, DeskProposal, DeskQuestion } from '../../model/desk.js';
import { formatDate } from '../format-date.js';
import { isolateBidi } from '../isolate-bidi.js';
import { shortSha } from '../short-sha.js';

/** A canvas's text shown on the desk: its bidirectional controls kept inside it, as on the page. */
function shown(text: string): ElementContent {
  const isolated = isolateBidi(text);
  return isolated === text ? { type: 'text', value: text } : h('bdi', isolated);
}

const pageOf = (ledger: string) => `${encodeURIComponent(ledger)}/index.html`;

function question(q: DeskQuestion): Element {
  return h('li', { className: ['desk-question'], dataLedger: q.ledger, dataNode: q.node, dataRevision: q.revision }, [
    h('p', { className: ['desk-what'] }, [h('a', { href: `${pageOf(q.ledger)}#${q.node}` }, [shown(q.text)])]),
    h('p', { className: ['desk-meta'] }, [
      'in ',
      h('a', { href: pageOf(q.ledger) }, q.ledger),
      `, asked by ${q.askedBy}${q.askedAt ? `, ${formatDate(q.askedAt)}` : ''}`,
    ]),
  ]);
}

/** The change as diff lines: the node now (`-`), the node proposed (`+`). */
function diff(p: DeskProposal): Element {
  const lines = (text: string | null, sign: string, tag: string): Element[] =>
    (text ?? '')
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((l) => h(tag, { className: [tag === 'del' ? 'desk-before' : 'desk-after'] }, `${sign} ${l}`));
  const body = [...lines(p.before, '-', 'del'), ...lines(p.after, '+', 'ins')];
  return h('pre', { className: ['desk-diff'] }, body.length > 0 ? body.flatMap((e, i) => (i === 0 ? [e] : [{ type: 'text' as const, value: '\n' }, e])) : ['(the node moves; its content stays)']);
}

function proposal(p: DeskProposal): Element {
  const what = `${p.op}${p.node ? ` ${p.node}` : ''}${p.place ? ` ${p.place}` : ''}`;
  return h('li', { className: ['desk-proposal'], dataLedger: p.ledger, dataProposal: p.id, dataRevision: p.revision }, [
    h('p', { className: ['desk-what'] }, [
      h('strong', what),
      ' in ',
      h('a', { href: p.node ? `${pageOf(p.ledger)}#${p.node}` : pageOf(p.ledger) }, p.ledger),
      `, proposed by ${p.proposedBy}: `,
      h('span', { className: ['reason'] }, [shown(p.why)]),
    ]),
    diff(p),
    h('p', { className: ['desk-meta'] }, [
      'proposal ',
      h('code', p.id),
      ', against revision ',
      h('code', { title: p.base }, shortSha(p.base)),
    ]),
  ]);
}

/**
 * The desk at the top of the index (docs/site.md, "The desk"): every open question across the
 * canvases, oldest first, each linking to its node, with who asked and when; then every proposal
 * waiting for a decision with its proposer, its change as diff lines and its reason. Each item
 * carries its canvas, node or proposal and revision as data attributes, which the served tab's
 * script uses to add its controls (docs/serve.md, "The desk"); the built page has none.
 *
 * @param desk - the desk, sorted (`sortDesk`)
 * @returns the `<section id="desk">` element
 */
export function deskSection(desk: Desk): Element {
  const q = desk.questions.length;
  const p = desk.proposals.length;
  const summary =
    q === 0 && p === 0
      ? 'Nothing waits for you: no open question, no proposal.'
      : `${q} open ${q === 1 ? 'question' : 'questions'}, ${p} ${p === 1 ? 'proposal' : 'proposals'} waiting for a decision.`;
  return h('section', { id: 'desk', className: ['desk'], ariaLabelledBy: 'desk-title' }, [
    h('h2', { id: 'desk-title' }, 'Waiting for you'),
    h('p', { id: 'desk-summary', className: ['desk-summary'] }, summary),
    ...(q === 0 ? [] : [h('h3', 'Open questions, oldest first'), h('ol', { id: 'desk-questions', className: ['desk-list'] }, desk.questions.map(question))]),
    ...(p === 0 ? [] : [h('h3', 'Proposals waiting for a decision'), h('ol', { id: 'desk-proposals', className: ['desk-list'] }, desk.proposals.map(proposal))]),
  ]);
}
