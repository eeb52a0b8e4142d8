import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import { type Desk, type DeskProposal, type DeskQuestion, deskProposalKey, deskQuestionKey } from '../../model/desk.js';
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
    h('p', { className: ['desk-meta'] }, ['in ', h('a', { href: pageOf(q.ledger) }, q.ledger), `, asked by ${q.askedBy}${q.askedAt ? `, ${formatDate(q.askedAt)}` : ''}`]),
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
    h('p', { className: ['desk-meta'] }, ['proposal ', h('code', p.id), ', against revision ', h('code', { title: p.base }, shortSha(p.base))]),
  ]);
}

/** The items of a desk as HTML, each with its place in the desk's order (`deskQuestionKey`, `deskProposalKey`). */
export interface DeskHtml {
  questions: Array<[key: string, html: string]>;
  proposals: Array<[key: string, html: string]>;
}

/**
 * Each question and proposal of one canvas's desk as HTML, serialized alone by
 * hast-util-to-html (the same bytes {@link deskSection}'s lists hold for it), with its sort key.
 * The site keeps them in the canvas's manifest entry instead of the desk itself, so a build after
 * one edit joins every other canvas's items instead of rendering them again (docs/site.md,
 * "Incremental").
 *
 * @param desk - the desk of one canvas (or any), in any order
 * @returns one `[key, <li>]` per question and per proposal, in the order given
 */
export function renderDeskItems(desk: Desk): DeskHtml {
  return {
    questions: desk.questions.map((q) => [deskQuestionKey(q), toHtml(question(q))]),
    proposals: desk.proposals.map((p) => [deskProposalKey(p), toHtml(proposal(p))]),
  };
}

/** The lists' places in the serialized page: NUL cannot stand in a page's text, a stylesheet or a script. */
const QUESTIONS = '\u0000canvas-desk-questions\u0000';
const PROPOSALS = '\u0000canvas-desk-proposals\u0000';

/**
 * The desk at the top of the index (docs/site.md, "The desk"): every open question across the
 * canvases, oldest first, each linking to its node, with who asked and when; then every proposal
 * waiting for a decision with its proposer, its change as diff lines and its reason. Each item
 * carries its canvas, node or proposal and revision as data attributes, which the served tab's
 * script uses to add its controls (docs/serve.md, "The desk"); the built page has none. The items
 * are not in the tree: each list holds a raw place that {@link fillDesk} replaces with the items'
 * HTML once the page is serialized (at thousands of questions, building and serializing them in
 * the tree at every build was most of a build after one edit).
 *
 * @param questions - how many open questions the desk lists
 * @param proposals - how many proposals
 * @returns the `<section id="desk">` element
 */
export function deskSection(questions: number, proposals: number): Element {
  const q = questions;
  const p = proposals;
  const summary =
    q === 0 && p === 0 ? 'Nothing waits for you: no open question, no proposal.' : `${q} open ${q === 1 ? 'question' : 'questions'}, ${p} ${p === 1 ? 'proposal' : 'proposals'} waiting for a decision.`;
  return h('section', { id: 'desk', className: ['desk'], ariaLabelledBy: 'desk-title' }, [
    h('h2', { id: 'desk-title' }, 'Waiting for you'),
    h('p', { id: 'desk-summary', className: ['desk-summary'] }, summary),
    ...(q === 0 ? [] : [h('h3', 'Open questions, oldest first'), h('ol', { id: 'desk-questions', className: ['desk-list'] }, [{ type: 'raw', value: QUESTIONS }])]),
    ...(p === 0 ? [] : [h('h3', 'Proposals waiting for a decision'), h('ol', { id: 'desk-proposals', className: ['desk-list'] }, [{ type: 'raw', value: PROPOSALS }])]),
  ]);
}

/**
 * Put the desk's items into a page serialized with {@link deskSection}'s places.
 *
 * @param page - the serialized page
 * @param items - the items' HTML, each list in the desk's order
 * @returns the page with its lists filled
 */
export function fillDesk(page: string, items: { questions: string[]; proposals: string[] }): string {
  let out = page;
  for (const [place, list] of [
    [QUESTIONS, items.questions],
    [PROPOSALS, items.proposals],
  ] as const) {
    const at = out.indexOf(place);
    if (at >= 0) out = `${out.slice(0, at)}${list.join('')}${out.slice(at + place.length)}`;
  }
  return out;
}
