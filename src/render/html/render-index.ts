import type { Element, ElementContent, Root } from 'hast';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import { endingLine } from '../../model/ending-line.js';
import { type Desk, sortedBy } from '../../model/desk.js';
import type { Ending } from '../../model/snapshot.js';
import { formatDate } from '../format-date.js';
import { isolateBidi } from '../isolate-bidi.js';
import { shortSha } from '../short-sha.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import { type DeskHtml, deskSection, fillDesk, renderDeskItems } from './desk-section.js';
import { type LiveAssets, liveElements } from './live-assets.js';
import { headElements } from './head-elements.js';

/** One canvas on the site's index page. */
export interface IndexEntry {
  ledger: string;
  revision: string;
  /** The canvas's summary (docs/projections.md, "The summary"): the line shown, and the whole. */
  summary: { text: string; full: string } | null;
  openQuestions: number;
  questions: number;
  nodes: number;
  lastEdit: { date: string; author: string; op: string; reason: string } | null;
  /** The latest ending (docs/store.md, "Endings"). */
  ending: Pick<Ending, 'kind' | 'commit' | 'reason' | 'editedSince'> | null;
  /** What of this canvas waits for a person: its open questions and open proposals (docs/site.md, "The desk"). */
  desk?: Desk;
}

/**
 * Every entry's desk items as HTML (an entry's `deskHtml` as {@link renderDeskItems} made it, else
 * its desk's rendered now), each list sorted as the desk is (docs/site.md, "The desk").
 */
function deskItems(entries: ReadonlyArray<IndexEntry & { deskHtml?: DeskHtml }>): { questions: string[]; proposals: string[] } {
  const questions: DeskHtml['questions'] = [];
  const proposals: DeskHtml['proposals'] = [];
  for (const e of entries) {
    const html = e.deskHtml ?? (e.desk ? renderDeskItems(e.desk) : null);
    if (!html) continue;
    questions.push(...html.questions);
    proposals.push(...html.proposals);
  }
  const joined = (list: DeskHtml['questions']) => sortedBy(list, ([key]) => key).map(([, html]) => html);
  return { questions: joined(questions), proposals: joined(proposals) };
}

function endingCell(ending: IndexEntry['ending']): Array<ElementContent | string> {
  if (!ending) return ['no'];
  const { lead, tail } = endingLine(ending);
  return [h('strong', lead.trimEnd()), ' ', h('code', { title: ending.commit }, shortSha(ending.commit)), tail];
}

/** The columns, with the label each cell shows beside its value on a phone, where rows are cards. */
const COLUMNS = ['canvas', 'questions', 'last edit', 'ended', 'nodes', 'revision'] as const;

/** A node's text shown on the index: its bidirectional controls kept inside it, as on the page. */
function nodeText(text: string): ElementContent {
  const isolated = isolateBidi(text);
  return isolated === text ? { type: 'text', value: text } : h('bdi', isolated);
}

function row(e: IndexEntry): Element {
  const last: Array<ElementContent | string> = e.lastEdit
    ? [h('span', { className: ['edit'] }, `${e.lastEdit.op} by ${e.lastEdit.author}, ${formatDate(e.lastEdit.date)}`), ': ', h('span', { className: ['reason'] }, e.lastEdit.reason)]
    : ['none'];
  const summary = e.summary ? [h('p', { className: ['summary'], ...(e.summary.full !== e.summary.text ? { title: e.summary.full } : {}) }, [nodeText(e.summary.text)])] : [];
  const cell = (column: (typeof COLUMNS)[number], className: string[], content: Array<ElementContent | string>): Element => h('td', { className, dataLabel: column }, content);
  return h('tr', { id: `canvas-${e.ledger}`, dataName: e.ledger, dataEdited: e.lastEdit?.date ?? '', dataOpen: String(e.openQuestions) }, [
    cell('canvas', ['ledger'], [h('a', { href: `${encodeURIComponent(e.ledger)}/index.html` }, e.ledger), ...summary]),
    cell('questions', e.openQuestions > 0 ? ['count', 'open'] : ['count'], [`${e.openQuestions} open of ${e.questions}`]),
    cell('last edit', ['last-edit'], last),
    cell('ended', e.ending ? ['ending', e.ending.kind] : ['ending'], endingCell(e.ending)),
    cell('nodes', ['count'], [String(e.nodes)]),
    cell('revision', ['revision'], [h('code', { title: e.revision }, shortSha(e.revision))]),
  ]);
}

/**
 * One canvas's row of the index page (docs/site.md, "The index"), serialized alone by
 * hast-util-to-html: the same bytes {@link renderIndex} writes for the entry. The site keeps it
 * in its manifest beside the entry, so a build that changes one canvas joins the other rows
 * instead of rendering them again (docs/site.md, "Incremental").
 *
 * @param e - the canvas's entry
 * @returns the `<tr>` element's HTML, no line feed
 */
export function renderIndexRow(e: IndexEntry): string {
  return toHtml(row(e));
}

/**
 * The search box and sort order (docs/site.md, "The index"): hidden until the index's own script
 * shows them, so a reader without the script sees no control that does nothing.
 */
function tools(): Element {
  const orders = [
    ['name', 'name'],
    ['edited', 'last edit, newest first'],
    ['open', 'open questions, most first'],
  ] as const;
  return h('div', { id: 'index-tools', className: ['index-tools'], hidden: true }, [
    h('p', { className: ['tool'] }, [h('label', { htmlFor: 'index-search' }, 'Search'), ' ', h('input', { type: 'search', id: 'index-search', autoComplete: 'off' })]),
    h('p', { className: ['tool'] }, [
      h('label', { htmlFor: 'index-sort' }, 'Sort by'),
      ' ',
      h(
        'select',
        { id: 'index-sort' },
        orders.map(([value, label]) => h('option', { value }, label)),
      ),
    ]),
    h('p', { id: 'index-count', className: ['index-count'], ariaLive: 'polite' }),
  ]);
}

/**
 * Render the site's index page (`docs/site.md`, "The index"): one standalone page that opens with
 * the desk (every open question and open proposal of the entries, docs/site.md "The desk"), then
 * lists every canvas, with its summary, open questions, last edit, latest ending ("frozen at <sha>: <reason>",
 * "abandoned at <sha>: <reason>", docs/store.md "Endings") and a link to its page; a
 * table on a wide screen, one card per canvas on a phone. With `script`, a search box and a sort
 * order (by name, last edit or open questions) that the script shows and runs; without it, or
 * with scripts off, the list stays in the order given. A hast tree serialized by
 * hast-util-to-html, synchronously and without I/O, the given stylesheet and script inlined, a
 * Content-Security-Policy that allows only those two, by their hashes. Entries are shown in the
 * order given (the site sorts by ledger id). An entry may carry its `row` as
 * {@link renderIndexRow} made it for the same entry: it is written as it is, not rendered again.
 *
 * @param entries - one per canvas, each with its row's HTML or without
 * @param css - the stylesheet: `templates/page.css`, a line feed, then `templates/index.css`
 * @param live - for the index `canvas serve` serves: its script and stylesheet (docs/serve.md)
 * @param script - the index's script, `templates/index.js`; default none (no search, no sorting)
 * @returns the page, ending in a line feed; the same entries, stylesheet and script give the same bytes
 */
export function renderIndex(entries: ReadonlyArray<IndexEntry & { row?: string; deskHtml?: DeskHtml }>, css: string, live?: LiveAssets, script?: string): string {
  const open = entries.reduce((n, e) => n + e.openQuestions, 0);
  const desk = deskItems(entries);
  // The rows go in after the page is serialized, in place of one raw node holding ROWS: each
  // element's content is joined into a new string at every level of the tree, and at a thousand
  // rows (800 KB) those copies and the garbage they leave were most of a build after one edit
  // (docs/site.md, "Incremental"). The bytes are the same as with the rows in the tree.
  const list: ElementContent[] =
    entries.length === 0
      ? [h('p', { className: ['empty'] }, 'There is no canvas in this workspace yet.')]
      : [
          deskSection(desk.questions.length, desk.proposals.length),
          h('h2', { id: 'canvases-title' }, 'Every canvas'),
          ...(script === undefined ? [] : [tools()]),
          h('table', { className: ['canvases'], ariaLabelledBy: 'canvases-title' }, [
            h('thead', [
              h(
                'tr',
                COLUMNS.map((t) => h('th', { scope: 'col' }, t)),
              ),
            ]),
            h('tbody', [{ type: 'raw', value: ROWS }]),
          ]),
        ];
  const body: ElementContent[] = [
    h('header', { className: ['masthead'] }, [
      h('p', { className: ['kicker'] }, 'Canvas'),
      h('h1', 'Canvases'),
      h('p', `${entries.length} ${entries.length === 1 ? 'canvas' : 'canvases'}, ${open} open ${open === 1 ? 'question' : 'questions'}.`),
    ]),
    h('main', list),
    h('footer', [h('p', 'This index is a projection: it is regenerated by canvas build, never edited.')]),
    ...(script === undefined || entries.length === 0 ? [] : [h('script', script)]),
  ];
  const head = [...headElements('Canvases', css), ...liveElements(live)];
  const html = h('html', { lang: 'en' }, [h('head', head), h('body', { className: ['site-index'] }, body)]);
  const tree: Root = { type: 'root', children: [{ type: 'doctype' }, html] };
  head.splice(1, 0, h('meta', { httpEquiv: 'Content-Security-Policy', content: contentSecurityPolicy(tree, { mermaid: false }) }));
  (html.children[0] as Element).children = head;
  // `allowDangerousHtml` writes the places of the rows and of the desk's items as they are: the
  // tree holds no other raw node.
  const page = toHtml(tree, { upperDoctype: true, allowDangerousHtml: true });
  if (entries.length === 0) return `${page}\n`;
  const at = page.indexOf(ROWS);
  const rows = entries.map((e) => e.row ?? toHtml(row(e))).join('');
  return `${fillDesk(page.slice(0, at), desk)}${rows}${page.slice(at + ROWS.length)}\n`;
}

/** The rows' place in the serialized index: NUL cannot stand in a page's text, a stylesheet or a script. */
const ROWS = '\u0000canvas-index-rows\u0000';
