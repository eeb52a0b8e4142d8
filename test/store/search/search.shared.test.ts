// canvas search (docs/search.md): the words and the snippet, ranking and filters over a small
// workspace, the refusals, the index cache (a changed canvas re-indexes alone; a corrupt or
// foreign cache file is ignored and rebuilt) and the command line.
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { type SearchRequest, searchCanvases } from '../../../src/store/search/search-canvases.js';
import { searchSnippet } from '../../../src/store/search/search-snippet.js';
import { phraseAt, searchTerms, searchWords } from '../../../src/store/search/search-terms.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, repoState, tempWorkspace } from '../../helpers/workspace.js';

function applied(o: Outcome): { revision: string; node: string | null; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

/** Each marked span of a snippet, as the reader sees it. */
const marked = (s: { text: string; marks: Array<[number, number]> }) => s.marks.map(([a, b]) => s.text.slice(a, b));

describe('the words and the snippet', () => {
  it('splits words on anything but letters, marks and digits, in lower case, with their offsets', () => {
    expect(searchTerms('Über-Öl: p99 (2 s), naïve_case')).toEqual(['über', 'öl', 'p99', '2', 's', 'naïve', 'case']);
    const text = 'a  Proxy!';
    const [, w] = searchWords(text);
    expect(w).toEqual({ term: 'proxy', start: 3, end: 8 });
    expect(phraseAt(['the', 'proxy', 'idle', 'timeout'], ['proxy', 'idle', 'time'])).toBe(1);
    expect(phraseAt(['the', 'proxy', 'idle', 'timeout'], ['proxy', 'time'])).toBe(-1);
  });

  it('marks a phrase as one span, at exact offsets, and keeps a literal ** of the text apart', () => {
    const s = searchSnippet('Note **bold**: the proxy  idle\ntimeout is 30 s.', new Set(['proxy', 'idle', 'timeout']), ['proxy', 'idle', 'timeout']);
    expect(s.text).toBe('Note **bold**: the **proxy idle timeout** is 30 s.');
    expect(marked(s)).toEqual(['proxy idle timeout']);
    for (const [a, b] of s.marks) expect([s.text.slice(a - 2, a), s.text.slice(b, b + 2)]).toEqual(['**', '**']);
  });

  it('opens about 50 characters before the first phrase, cuts at words, and says where the text goes on', () => {
    const before = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const after = Array.from({ length: 60 }, (_, i) => `z${i}`).join(' ');
    const text = `${before} idle here, then the proxy idle timeout ${after}`;
    const s = searchSnippet(text, new Set(['proxy', 'idle', 'timeout']), ['proxy', 'idle', 'timeout']);
    expect(s.text.startsWith('… ')).toBe(true);
    expect(s.text.endsWith(' …')).toBe(true);
    expect(marked(s)).toEqual(['idle', 'proxy idle timeout']);
    const words = s.text.replace(/[*…]/g, '').trim().split(/\s+/);
    for (const w of words) expect(text.split(/[\s,]+/)).toContain(w.replace(/,$/, ''));
    expect(s.text.length).toBeLessThan(200);
    // A match at the very start opens at the start.
    expect(searchSnippet('Proxy first.', new Set(['proxy']), ['proxy']).text).toBe('**Proxy** first.');
  });
});

describe('searchCanvases over a workspace', () => {
  let ws: Workspace;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ws = tempWorkspace('canvas-search-');
    const a = applied(await openCanvas(ws, { ledger: 'fix-login', problem: 'Login times out under load: the proxy idle timeout is 30 s.', expectedValue: 'p99 under 2 s.', why: 'opened', author: AUTHOR }));
    ids.problem = a.nodes![0]!;
    const s = applied(await insertNode(ws, { ledger: 'fix-login', after: a.nodes![1]!, payload: { section: 'Proxy findings' }, base: a.revision, why: 'a place for findings', author: AUTHOR }));
    ids.section = s.node!;
    const q = applied(await insertNode(ws, { ledger: 'fix-login', into: s.node!, payload: { question: 'Is the timeout in the proxy or the app?' }, base: s.revision, why: 'nobody knows', author: AUTHOR }));
    ids.question = q.node!;
    const t = applied(
      await insertNode(ws, {
        ledger: 'fix-login',
        after: q.node!,
        payload: { xml: '<table><row><cell>layer</cell><cell>idle timeout</cell></row><row><cell>proxy</cell><cell>30 s</cell></row></table>' },
        base: q.revision,
        why: 'measured',
        author: AUTHOR,
      }),
    );
    ids.table = t.node!;
    applied(
      await insertNode(ws, { ledger: 'fix-login', after: t.node!, payload: { xml: '<link href="https://example.org/proxy-docs">The proxy manual</link>' }, base: t.revision, why: 'the source', author: AUTHOR }),
    );
    const o = applied(await openCanvas(ws, { ledger: 'other', problem: 'The proxy cache is cold after deploy.', expectedValue: 'Warm within a minute.', why: 'opened', author: AUTHOR }));
    ids.other = o.nodes![0]!;
    const sc = applied(await openCanvas(ws, { ledger: 'scattered', problem: 'A timeout, said the proxy team, is never idle work.', expectedValue: 'None.', why: 'opened', author: AUTHOR }));
    ids.scattered = sc.nodes![0]!;
  });

  const search = (r: Partial<SearchRequest> & { query: string }) => searchCanvases(ws, r);

  it('finds nodes holding every word, the whole phrase first, each with the revision to write against', async () => {
    const found = await search({ query: 'proxy idle timeout' });
    const refs = Object.fromEntries((await listCanvases(ws)).map((r) => [r.ledger, r.revision]));
    expect(found.hits[0]).toMatchObject({ ledger: 'fix-login', node: ids.problem, type: 'text', phrase: true, snippet: 'Login times out under load: the **proxy idle timeout** is 30 s.' });
    const rest = found.hits.slice(1);
    expect(rest.map((h) => h.node).sort()).toEqual([ids.scattered, ids.table].sort());
    expect(rest.every((h) => !h.phrase)).toBe(true);
    for (const h of found.hits) expect(h.revision).toBe(refs[h.ledger]);
    expect(found).toMatchObject({ query: 'proxy idle timeout', terms: ['proxy', 'idle', 'timeout'], total: 3, canvases: 3, failures: [] });
  });

  it('matches the last word as a start, filters by type and ledger, and limits with the total kept', async () => {
    const prefix = await search({ query: 'proxy idle time' });
    expect(prefix.hits[0]?.node).toBe(ids.problem);
    const questions = await search({ query: 'proxy', types: ['question'] });
    expect(questions.hits.map((h) => h.node)).toEqual([ids.question]);
    const one = await search({ query: 'proxy', ledger: 'other' });
    expect(one.hits.map((h) => [h.ledger, h.node])).toEqual([['other', ids.other]]);
    expect(one.canvases).toBe(1);
    const all = await search({ query: 'proxy' });
    expect(all.total).toBe(7);
    const two = await search({ query: 'proxy', limit: 2 });
    expect(two.total).toBe(7);
    expect(two.hits).toEqual(all.hits.slice(0, 2));
    // A section is found by its title, a link by its label and its address.
    expect((await search({ query: 'findings' })).hits.map((h) => [h.node, h.type])).toEqual([[ids.section, 'section']]);
    expect((await search({ query: 'example org' })).hits.map((h) => h.type)).toEqual(['link']);
    expect((await search({ query: 'nothing-like-it' })).total).toBe(0);
  });

  it("a hit's revision is a base a write takes", async () => {
    const w = tempWorkspace('canvas-search-base-');
    const o = applied(await openCanvas(w, { ledger: 'b', problem: 'The nightly export misses rows.', expectedValue: 'Every row.', why: 'opened', author: AUTHOR }));
    applied(await insertNode(w, { ledger: 'b', after: o.nodes![1]!, payload: { text: 'Later note.' }, base: o.revision, why: 'another edit', author: AUTHOR }));
    const [hit] = (await searchCanvases(w, { query: 'nightly export' })).hits;
    expect(hit?.node).toBe(o.nodes![0]);
    const r = await replaceNode(w, { ledger: 'b', node: hit!.node, payload: { text: 'The nightly export misses the last rows.' }, base: hit!.revision, why: 'narrowed', author: AUTHOR });
    expect(r).toMatchObject({ outcome: 'applied', node: hit!.node });
    expect((await readCanvas(w, { ledger: 'b' })).revision).toBe(applied(r).revision);
  });

  it('refuses an empty query, an unknown type, a bad limit and a ledger that is not there, writing nothing', async () => {
    const before = repoState(ws);
    const cache = readdirSync(join(ws.repo, '.git', 'canvas-cache', 'search')).sort();
    const code = async (r: SearchRequest) => {
      try {
        await searchCanvases(ws, r);
      } catch (e) {
        if (e instanceof CanvasError) return e.code;
        throw e;
      }
      return 'none';
    };
    expect(await code({ query: '' })).toBe('USAGE');
    expect(await code({ query: '   ' })).toBe('USAGE');
    expect(await code({ query: '?! —' })).toBe('USAGE');
    expect(await code({ query: 'proxy', types: ['paragraph'] })).toBe('USAGE');
    expect(await code({ query: 'proxy', limit: 0 })).toBe('USAGE');
    expect(await code({ query: 'proxy', ledger: 'Bad/Id' })).toBe('BAD_LEDGER_ID');
    expect(await code({ query: 'proxy', ledger: 'no-such' })).toBe('CANVAS_NOT_FOUND');
    // The limits (docs/search.md, "Limits"): a 400 KB query is refused before it is split.
    expect(await code({ query: 'proxy '.repeat(70_000) })).toBe('TOO_LONG');
    expect(await code({ query: 'x'.repeat(1001) })).toBe('TOO_LONG');
    expect(await code({ query: Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ') })).toBe('TOO_LONG');
    expect(await code({ query: Array.from({ length: 64 }, (_, i) => `w${i}`).join(' ') })).toBe('none');
    expect(repoState(ws)).toEqual(before);
    expect(readdirSync(join(ws.repo, '.git', 'canvas-cache', 'search')).sort()).toEqual(cache);
    // Before the first canvas there is nothing to search, and nothing is made.
    const empty = tempWorkspace('canvas-search-empty-');
    expect(await searchCanvases(empty, { query: 'proxy' })).toMatchObject({ total: 0, canvases: 0, hits: [] });
    expect(existsSync(empty.repo)).toBe(false);
  });
});

describe('the index cache', () => {
  const file = (ws: Workspace, ledger: string) => join(ws.repo, '.git', 'canvas-cache', 'search', `${ledger}.json`);
  const stamp = (path: string) => {
    const s = statSync(path);
    return { ino: s.ino, mtime: s.mtimeMs, bytes: readFileSync(path, 'utf8') };
  };

  it('indexes every canvas once; a changed canvas alone is indexed again, the others are not rewritten', async () => {
    const ws = tempWorkspace('canvas-search-cache-');
    const heads: Record<string, { revision: string; nodes: string[] }> = {};
    for (const l of ['c1', 'c2', 'c3']) {
      const o = applied(await openCanvas(ws, { ledger: l, problem: `Canvas ${l} is about the proxy.`, expectedValue: 'Known.', why: 'opened', author: AUTHOR }));
      heads[l] = { revision: o.revision, nodes: o.nodes! };
    }
    expect(await searchCanvases(ws, { query: 'proxy' })).toMatchObject({ total: 3, canvases: 3, indexed: 3 });
    const first = Object.fromEntries(['c1', 'c2', 'c3'].map((l) => [l, stamp(file(ws, l))]));
    expect(await searchCanvases(ws, { query: 'proxy' })).toMatchObject({ total: 3, indexed: 0 });
    expect(Object.fromEntries(['c1', 'c2', 'c3'].map((l) => [l, stamp(file(ws, l))]))).toEqual(first);

    applied(await replaceNode(ws, { ledger: 'c2', node: heads.c2!.nodes[0]!, payload: { text: 'Canvas c2 is about the cache now.' }, base: heads.c2!.revision, why: 'moved on', author: AUTHOR }));
    const after = await searchCanvases(ws, { query: 'proxy' });
    expect(after).toMatchObject({ total: 2, indexed: 1 });
    expect(after.hits.map((h) => h.ledger)).toEqual(['c1', 'c3']);
    expect(stamp(file(ws, 'c1'))).toEqual(first.c1);
    expect(stamp(file(ws, 'c3'))).toEqual(first.c3);
    expect(stamp(file(ws, 'c2')).ino).not.toBe(first.c2!.ino);
    expect((await searchCanvases(ws, { query: 'cache now' })).hits.map((h) => h.ledger)).toEqual(['c2']);
  });

  it('ignores and rebuilds a corrupt, a foreign, a stale and a malformed cache file', async () => {
    const ws = tempWorkspace('canvas-search-bad-cache-');
    applied(await openCanvas(ws, { ledger: 'd1', problem: 'The proxy drops idle sockets.', expectedValue: 'None dropped.', why: 'opened', author: AUTHOR }));
    applied(await openCanvas(ws, { ledger: 'd2', problem: 'The queue stalls at night.', expectedValue: 'No stall.', why: 'opened', author: AUTHOR }));
    const good = await searchCanvases(ws, { query: 'proxy' });
    expect(good.hits.map((h) => h.ledger)).toEqual(['d1']);
    // The workspace index holds both canvases at their revisions: a search answers from it and
    // does not look at their own files, whatever they hold.
    writeFileSync(file(ws, 'd1'), '{not json');
    expect(await searchCanvases(ws, { query: 'proxy' })).toMatchObject({ hits: good.hits, indexed: 0 });
    // Without it, each canvas's own file is read, and a bad one is not believed.
    const workspaceIndex = join(ws.repo, '.git', 'canvas-cache', 'search', '_workspace.bin');
    const expectGood = async (indexed: number) => {
      rmSync(workspaceIndex);
      const got = await searchCanvases(ws, { query: 'proxy' });
      expect(got.hits).toEqual(good.hits);
      expect(got.indexed).toBe(indexed);
      expect((await searchCanvases(ws, { query: 'queue stalls' })).hits.map((h) => h.ledger)).toEqual(['d2']);
    };
    // Not JSON at all.
    writeFileSync(file(ws, 'd1'), '{not json');
    await expectGood(1);
    // Foreign: d1's index under d2's name says d2 holds the proxy: it is not believed.
    copyFileSync(file(ws, 'd1'), file(ws, 'd2'));
    await expectGood(1);
    // Stale: the right canvas, another revision.
    const f = JSON.parse(readFileSync(file(ws, 'd1'), 'utf8')) as { revision: string; index: string };
    writeFileSync(file(ws, 'd1'), JSON.stringify({ ...f, revision: '0'.repeat(40) }));
    await expectGood(1);
    // Malformed inside: the envelope is right, the serialized index does not load.
    const g = JSON.parse(readFileSync(file(ws, 'd1'), 'utf8')) as { index: string };
    writeFileSync(file(ws, 'd1'), JSON.stringify({ ...g, index: '{"documentCount":' }));
    await expectGood(1);
    expect(() => JSON.parse(JSON.parse(readFileSync(file(ws, 'd1'), 'utf8')).index as string)).not.toThrow();
  });
});

describe('canvas search on the command line', () => {
  let ws: Workspace;
  let revision: string;
  let node: string;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-search-cli-');
    const o = applied(await openCanvas(ws, { ledger: 'fix-login', problem: 'Login times out: the proxy idle timeout is 30 s.', expectedValue: 'p99 under 2 s.', why: 'opened', author: AUTHOR }));
    revision = o.revision;
    node = o.nodes![0]!;
  });

  it('prints each hit with its base and the snippet, the words as one query, markers without colour', async () => {
    const r = await runMain(ws, ['search', 'proxy', 'idle']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`fix-login ${node} text  base ${revision.slice(0, 7)}\n  Login times out: the **proxy idle** timeout is 30 s.\n\n1 hit in 1 canvas\n`);
    const colour = await runMain(ws, ['search', 'proxy'], { NO_COLOR: '', FORCE_COLOR: '1' });
    expect(colour.stdout).toContain('the \u001b[1;33mproxy\u001b[0m idle');
    expect(colour.stdout).not.toContain('**');
    const none = await runMain(ws, ['search', 'nothing']);
    expect(none).toMatchObject({ code: 0, stdout: 'No node matches "nothing" in 1 canvas.\n' });
  });

  it('prints JSON with --json, refusals as codes with exit 2, and has an example in --help', async () => {
    const r = await runMain(ws, ['search', 'proxy idle', '--type', 'text', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      query: 'proxy idle',
      total: 1,
      hits: [{ ledger: 'fix-login', node, revision, snippet: 'Login times out: the **proxy idle** timeout is 30 s.', marks: [[23, 33]] }],
    });
    for (const [args, code] of [
      [['search', ' ', '--json'], 'USAGE'],
      [['search', 'proxy', '--type', 'para', '--json'], 'USAGE'],
      [['search', 'proxy', '--limit', '0', '--json'], 'USAGE'],
      [['search', 'proxy', '--ledger', 'nope', '--json'], 'CANVAS_NOT_FOUND'],
      [['search', 'proxy', '--ledger', '../x', '--json'], 'BAD_LEDGER_ID'],
      [['search', 'word '.repeat(300), '--json'], 'TOO_LONG'],
    ] as const) {
      const bad = await runMain(ws, [...args]);
      expect([bad.code, (JSON.parse(bad.stdout) as { error: { code: string } }).error.code], args.join(' ')).toEqual([2, code]);
    }
    const help = await runMain(ws, ['search', '--help']);
    expect(help.stdout).toContain('canvas search idle timeout');
  });
});
