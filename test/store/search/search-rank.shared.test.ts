// The workspace search index scores as MiniSearch does (docs/search.md, "Ranking"): over random
// canvases of a small vocabulary, every query's matches, scores and matched words are MiniSearch's
// own search of each canvas's index (AND, the last word as a prefix), and the index written to
// its file and read back answers the same; a workspace index file that does not read is rebuilt.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import type { Canvas } from '../../../src/model/types.js';
import { openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { CanvasSearchIndex } from '../../../src/store/search/canvas-search-index.js';
import { searchCanvases } from '../../../src/store/search/search-canvases.js';
import { phraseMatcher } from '../../../src/store/search/phrase-matcher.js';
import { rankNodes } from '../../../src/store/search/rank-nodes.js';
import { phraseAt, searchTerms } from '../../../src/store/search/search-terms.js';
import { WorkspaceSearchIndex } from '../../../src/store/search/workspace-search-index.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

const VOCABULARY = ['proxy', 'proxies', 'pro', 'idle', 'idler', 'timeout', 'time', 'times', 'cache', 'cold', 'é', 'éclair', 'a', 'ab', 'abc'];

/** A seeded generator (mulberry32): the same canvases every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function canvases(r: () => number): Canvas[] {
  return Array.from({ length: 12 }, (_, c) => ({
    ledger: `c${String(c).padStart(2, '0')}`,
    schema: '2' as const,
    children: Array.from({ length: 1 + Math.floor(r() * 9) }, (_, n) => ({
      type: 'text' as const,
      id: `n${n}`,
      v: 1,
      text: Array.from({ length: Math.floor(r() * 12) }, () => VOCABULARY[Math.floor(r() * VOCABULARY.length)]).join(r() < 0.5 ? ' ' : ', '),
    })),
  }));
}

/** MiniSearch's own answer over each canvas's index, as the per-canvas search gave it. */
function miniSearchAnswer(all: Canvas[], query: string): Map<string, { score: number; terms: string[] }> {
  const out = new Map<string, { score: number; terms: string[] }>();
  for (const c of all) {
    const mini = new MiniSearch<{ id: string; text: string }>({ idField: 'id', fields: ['text'], storeFields: [], tokenize: searchTerms, processTerm: (t) => t });
    mini.addAll(c.children.map((n) => ({ id: n.id, text: n.type === 'text' ? n.text : '' })));
    for (const r of mini.search(query, { combineWith: 'AND', prefix: (_t, i, every) => i === every.length - 1, fuzzy: false }))
      out.set(`${c.ledger}/${String(r.id)}`, { score: r.score, terms: [...r.terms].sort() });
  }
  return out;
}

describe('the workspace search index', () => {
  it('matches and scores every query as MiniSearch searches each canvas, before and after its file is read back', () => {
    const r = rng(7);
    const all = canvases(r);
    // A canvas without a node is indexed too (it holds nothing).
    const empty: Canvas = { ledger: 'c99', schema: '2', children: [] };
    const merged = WorkspaceSearchIndex.merge([...all, empty].map((c) => CanvasSearchIndex.build(c, 'f'.repeat(40)).postings()));
    const gitDir = tempDir('canvas-search-rank-');
    merged.save(gitDir);
    const loaded = WorkspaceSearchIndex.load(gitDir);
    expect(loaded).not.toBeNull();
    const queries = ['proxy', 'pro', 'a', 'a a', 'idle time', 'time idle', 'ab a', 'é', 'cold cache prox', 'timeout', 'nothing'];
    for (let i = 0; i < 30; i += 1) queries.push(Array.from({ length: 1 + Math.floor(r() * 3) }, () => VOCABULARY[Math.floor(r() * VOCABULARY.length)]!.slice(0, 1 + Math.floor(r() * 4))).join(' '));
    let compared = 0;
    for (const query of queries) {
      const expected = miniSearchAnswer(all, query);
      for (const index of [merged, loaded!]) {
        const got = new Map(
          rankNodes(index, searchTerms(query), new Uint8Array(index.canvasCount).fill(1)).map((m) => {
            const { ledger } = index.canvasOf(index.canvasAt(m.node));
            return [`${ledger}/${index.node(m.node).id}` as string, m.score] as const;
          }),
        );
        expect([...got.keys()].sort(), query).toEqual([...expected.keys()].sort());
        for (const [key, want] of expected) expect(got.get(key), `${query}: ${key}`).toBeCloseTo(want.score, 12);
        compared += got.size;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});

describe('the workspace search index file', () => {
  it('is written by a search of every canvas, and one cut short, of another format or naming a node it lacks is rebuilt', async () => {
    const ws = tempWorkspace('canvas-search-workspace-file-');
    for (const [l, problem] of [
      ['w1', 'The proxy drops idle sockets.'],
      ['w2', 'The proxy cache is cold.'],
    ] as const) {
      const o = await openCanvas(ws, { ledger: l, problem, expectedValue: 'Fixed.', why: 'opened', author: AUTHOR });
      if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    }
    const gitDir = join(ws.repo, '.git');
    const path = WorkspaceSearchIndex.path(gitDir);
    const good = await searchCanvases(ws, { query: 'proxy' });
    expect(good).toMatchObject({ total: 2, indexed: 2 });
    const bytes = readFileSync(path);
    expect(await searchCanvases(ws, { query: 'proxy' })).toEqual({ ...good, indexed: 0 });
    const header = bytes.subarray(0, bytes.indexOf(10)).toString('utf8');
    const body = bytes.subarray(bytes.indexOf(10));
    // Node numbers past the last node in every posting: the header still agrees with the sizes.
    const pairs = (JSON.parse(header) as { starts: number[] }).starts.at(-1)!;
    const bad = Buffer.from(bytes);
    for (let i = 0; i < pairs; i += 1) bad.writeInt32LE(1_000_000, header.length + 1 + i * 8);
    for (const broken of [bytes.subarray(0, bytes.length - 3), Buffer.concat([Buffer.from(header.replace('"format":1', '"format":9')), body]), bad]) {
      writeFileSync(path, broken);
      expect(await searchCanvases(ws, { query: 'proxy' })).toEqual({ ...good, indexed: 0 });
      expect(readFileSync(path).equals(bytes)).toBe(true);
    }
  });
});

describe('the phrase test', () => {
  it('answers as splitting the text does, over capitals, marks, digits, symbols and a capital sigma', () => {
    const r = rng(11);
    const pieces = ['Proxy', 'proxy', 'IDLE', 'idle', 'idler', 'Ⅻ', 'ⅻ', 'İstanbul', 'i̇stanbul', 'ΟΔΟΣ', 'οδος', 'ὈΔΌΣ', 'Ⓐ', 'naïve', 'a.b', '3', '30', '(x)', '**', ' ', ', ', '-', '\n', '…', "'"];
    let agreed = 0;
    for (let i = 0; i < 1000; i += 1) {
      const text = Array.from({ length: Math.floor(r() * 10) }, () => pieces[Math.floor(r() * pieces.length)]).join(r() < 0.3 ? '' : ' ');
      const words = searchTerms(Array.from({ length: 1 + Math.floor(r() * 3) }, () => pieces[Math.floor(r() * pieces.length)]).join(' '));
      if (words.length === 0) continue;
      const phrase = r() < 0.5 ? words : words.map((w, k) => (k === words.length - 1 ? w.slice(0, 1 + Math.floor(r() * w.length)) : w));
      expect(phraseMatcher(phrase)(text), `${JSON.stringify(phrase)} in ${JSON.stringify(text)}`).toBe(phraseAt(searchTerms(text), phrase) >= 0);
      if (phraseAt(searchTerms(text), phrase) >= 0) agreed += 1;
    }
    expect(agreed).toBeGreaterThan(30);
  });
});
