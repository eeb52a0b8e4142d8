// The site's index page (docs/site.md, "The index"): each canvas's summary, a table that becomes
// cards on a phone, and a search box and sort order run by the index's own script, admitted by
// its hash and hidden when the script does not run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type IndexEntry, renderIndex, renderIndexRow } from '../../../src/render/html/render-index.js';
import { ROOT } from '../../helpers/workspace.js';
import { byId, classes, elements, parsePage, textOf } from '../page-claims.js';

const CSS = `${readFileSync(join(ROOT, 'templates', 'page.css'), 'utf8')}\n${readFileSync(join(ROOT, 'templates', 'index.css'), 'utf8')}`;
const SCRIPT = readFileSync(join(ROOT, 'templates', 'index.js'), 'utf8');
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const entry = (ledger: string, extra: Partial<IndexEntry> = {}): IndexEntry => ({
  ledger,
  revision: '0123456789abcdef0123456789abcdef01234567',
  summary: null,
  openQuestions: 0,
  questions: 0,
  nodes: 1,
  lastEdit: null,
  ending: null,
  ...extra,
});

describe('renderIndex', () => {
  it('shows each summary under its ledger id, the whole line as a title only when it was cut, bidi controls isolated', () => {
    const html = renderIndex(
      [
        entry('a', { summary: { text: 'Short and whole.', full: 'Short and whole.' } }),
        entry('b', { summary: { text: 'Cut here…', full: 'Cut here, and the rest of it.' } }),
        entry('c', { summary: { text: 'evil \u202e reversed', full: 'evil \u202e reversed' } }),
        entry('d'),
      ],
      CSS,
    );
    const tree = parsePage(html);
    const summary = (id: string) => elements(byId(tree, id)!).find((e) => classes(e.el).includes('summary'))?.el;
    expect(textOf(summary('canvas-a')!)).toBe('Short and whole.');
    expect(summary('canvas-a')!.properties.title).toBeUndefined();
    expect(summary('canvas-b')!.properties.title).toBe('Cut here, and the rest of it.');
    expect(elements(summary('canvas-c')!).map((e) => e.el.tagName)).toEqual(['bdi']);
    expect(summary('canvas-d')).toBeUndefined();
  });

  it('gives every cell its column as a label for the phone layout, and every row what the script sorts by', () => {
    const tree = parsePage(renderIndex([entry('a', { openQuestions: 2, questions: 3, lastEdit: { date: '2026-11-02T09:00:00Z', author: 'leo', op: 'insert', reason: 'r' } })], CSS, undefined, SCRIPT));
    const row = byId(tree, 'canvas-a')!;
    expect(row.properties).toMatchObject({ dataName: 'a', dataEdited: '2026-11-02T09:00:00Z', dataOpen: '2' });
    const labels = row.children.flatMap((c) => (c.type === 'element' ? [String(c.properties.dataLabel)] : []));
    const headers = elements(tree)
      .filter((e) => e.el.tagName === 'th')
      .map((e) => textOf(e.el));
    expect(labels).toEqual(headers);
  });

  it('with the script: hidden controls it shows, the script inlined once, and a policy admitting exactly it', () => {
    const html = renderIndex([entry('a'), entry('b')], CSS, undefined, SCRIPT);
    const tree = parsePage(html);
    expect(byId(tree, 'index-tools')!.properties.hidden).toBe(true);
    expect(byId(tree, 'index-search')!.tagName).toBe('input');
    expect(elements(byId(tree, 'index-sort')!).map((e) => e.el.properties.value)).toEqual(['name', 'edited', 'open']);
    const scripts = elements(tree).filter((e) => e.el.tagName === 'script');
    expect(scripts.map((e) => textOf(e.el))).toEqual([SCRIPT]);
    const csp = String(elements(tree).find((e) => e.el.properties.httpEquiv?.toString() === 'Content-Security-Policy')!.el.properties.content);
    expect(csp).toBe(`default-src 'none'; style-src ${sha256(CSS)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`);
  });

  it('writes a row given as renderIndexRow made it as it is: the same bytes as rendering it', () => {
    const entries = [
      entry('a', { summary: { text: 'A "quoted" <b>line</b> & more', full: 'A "quoted" <b>line</b> & more, whole' }, openQuestions: 2, questions: 3 }),
      entry('b', { lastEdit: { date: '2026-11-30T10:00:00Z', author: 'ana', op: 'replace', reason: 'why <not>' } }),
      entry('c', { ending: { kind: 'frozen', commit: '89abcdef0123456789abcdef0123456789abcdef', reason: 'done', editedSince: false } }),
    ];
    const rendered = renderIndex(entries, CSS, undefined, SCRIPT);
    expect(
      renderIndex(
        entries.map((e) => ({ ...e, row: renderIndexRow(e) })),
        CSS,
        undefined,
        SCRIPT,
      ),
    ).toBe(rendered);
    expect(rendered).toContain(renderIndexRow(entries[0]!));
    // The row given is what is written, whatever the entry says.
    expect(renderIndex([{ ...entries[1]!, row: '<tr id="canvas-b"><td>given</td></tr>' }], CSS)).toContain('<tbody><tr id="canvas-b"><td>given</td></tr></tbody>');
  });

  it('without the script, or with no canvas, has no controls and no script', () => {
    for (const html of [renderIndex([entry('a')], CSS), renderIndex([], CSS, undefined, SCRIPT)]) {
      const tree = parsePage(html);
      expect(byId(tree, 'index-tools')).toBeUndefined();
      expect(elements(tree).filter((e) => e.el.tagName === 'script')).toEqual([]);
      expect(html).not.toContain('script-src');
    }
  });
});
