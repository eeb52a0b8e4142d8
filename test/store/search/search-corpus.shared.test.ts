// canvas search over the MADR corpus (docs/search.md), imported as `canvas import` imports it: each
// record is found by a phrase from its Markdown, at node level, and a hit's revision is a base.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CanvasNode } from '../../../src/model/types.js';
import { replaceNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { searchCanvases } from '../../../src/store/search/search-canvases.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { MADR_CORPUS } from '../../helpers/corpus.js';
import { importMadrRecords } from '../../helpers/import-madr.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

/** Words as a reader would compare them: lower case, anything but letters and digits a space. */
const plain = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');

/** The prose of a line of Markdown: links as their text, emphasis and code marks dropped. */
const prose = (line: string) => line.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, ' ');

/**
 * Two phrases of a record, read from its Markdown (not from the canvas): its title, and the first
 * eight words of the first paragraph under a second-level heading.
 */
function phrasesOf(markdown: string): { title: string; body: string } {
  const lines = markdown.split('\n');
  const title = lines.find((l) => l.startsWith('# '))!.slice(2);
  const h2 = lines.findIndex((l) => l.startsWith('## '));
  const para = lines.slice(h2 + 1).find((l) => l.trim() !== '' && !/^(#|\*|-|\d+\.|>|<!--|\||```)/.test(l.trim()));
  const body = plain(prose(para ?? ''))
    .split(' ')
    .slice(0, 8)
    .join(' ');
  return { title: plain(prose(title)), body };
}

/** Every node of a canvas with the plain words of its text (the oracle the search is held to). */
function nodesOf(nodes: readonly CanvasNode[]): Array<{ id: string; words: string }> {
  return nodes.flatMap((n) => {
    const text =
      n.type === 'section'
        ? n.title
        : n.type === 'list'
          ? n.items.join('\n')
          : n.type === 'table'
            ? n.rows.flat().join('\n')
            : n.type === 'link'
              ? `${n.label}\n${n.href}`
              : n.type === 'figure'
                ? (n.caption ?? '')
                : n.text;
    return [{ id: n.id, words: ` ${plain(text)} ` }, ...(n.type === 'section' ? nodesOf(n.children) : [])];
  });
}

describe.skipIf(MADR_CORPUS === null)('canvas search over the imported MADR corpus', () => {
  let ws: Workspace;
  const records: Array<{ ledger: string; title: string; body: string }> = [];

  beforeAll(async () => {
    ws = tempWorkspace('canvas-search-madr-');
    for (const { ledger, markdown } of await importMadrRecords(ws)) records.push({ ledger, ...phrasesOf(markdown) });
  }, 120_000);

  it('finds each record by its title and by a phrase of its prose, at the nodes that hold the phrase', async () => {
    expect(records.length).toBeGreaterThan(10);
    for (const r of records) {
      const nodes = nodesOf((await readCanvas(ws, { ledger: r.ledger })).canvas.children);
      for (const phrase of [r.title, r.body]) {
        expect(phrase.split(' ').length, `${r.ledger}: ${phrase}`).toBeGreaterThan(1);
        const holding = nodes.filter((n) => n.words.includes(` ${phrase}`)).map((n) => n.id);
        expect(holding.length, `${r.ledger} holds "${phrase}"`).toBeGreaterThan(0);
        // Over every canvas: the record is among the hits, and a phrase hit comes first.
        const all = await searchCanvases(ws, { query: phrase, limit: 1000 });
        expect(all.hits[0]?.phrase, phrase).toBe(true);
        expect(
          all.hits.some((h) => h.ledger === r.ledger && holding.includes(h.node) && h.phrase),
          `${r.ledger}: ${phrase}`,
        ).toBe(true);
        // In the record itself: exactly the nodes that hold the phrase are its phrase hits.
        const own = await searchCanvases(ws, { query: phrase, ledger: r.ledger, limit: 1000 });
        expect(
          own.hits
            .filter((h) => h.phrase)
            .map((h) => h.node)
            .sort(),
          `${r.ledger}: ${phrase}`,
        ).toEqual([...holding].sort());
        for (const h of own.hits) expect(h.snippet.toLowerCase()).toContain(`**${phrase.split(' ')[0]}`);
      }
    }
  });

  it("a hit's revision is the base a write takes, and the write is then what search finds", async () => {
    const r = records[5]!;
    const [hit] = (await searchCanvases(ws, { query: r.body, ledger: r.ledger })).hits;
    const o = await replaceNode(ws, { ledger: r.ledger, node: hit!.node, payload: { text: 'Replaced after a search: zymurgy.' }, base: hit!.revision, why: 'the search found it', author: AUTHOR });
    expect(o).toMatchObject({ outcome: 'applied', node: hit!.node });
    const again = await searchCanvases(ws, { query: 'zymurgy' });
    expect(again).toMatchObject({ total: 1, indexed: 1, hits: [{ ledger: r.ledger, node: hit!.node }] });
    expect(again.hits[0]!.revision).toBe(o.outcome === 'applied' ? o.revision : '');
  });
});
