import { closeSync, fstatSync, openSync, readFileSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch, { type Options } from 'minisearch';
import { NODE_TYPES, type Canvas, type CanvasNode, type NodeType } from '../../model/types.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import type { CanvasPostings } from './canvas-postings.js';
import { nodeSearchText } from './node-search-text.js';
import { searchTerms } from './search-terms.js';

/** The cache file's format: a file of another format is not read (it is rebuilt). */
const FORMAT = 1;

/** A node as the index holds it: its id, type and search text, in document order. */
interface IndexedNode {
  id: string;
  type: NodeType;
  text: string;
}

/**
 * The search index of one canvas at one revision (docs/search.md, "The index cache"), as it is
 * kept in `.git/canvas-cache/search/<ledger>.json`: the nodes, the sorted set of their terms and
 * the MiniSearch index, serialized.
 */
interface CanvasSearchFile {
  format: typeof FORMAT;
  ledger: string;
  revision: string;
  terms: string[];
  nodes: IndexedNode[];
  index: string;
}

/** What MiniSearch's serialized index holds that BM25+ reads (its `toJSON()`, version 2). */
interface SerializedIndex {
  documentCount: number;
  documentIds: Record<string, string>;
  fieldLength: Record<string, number[]>;
  averageFieldLength: number[];
  index: Array<[string, Record<string, Record<string, number>>]>;
}

/** What the index is built with: one field, words split and lower-cased as the snippet splits them. */
const OPTIONS: Options<IndexedNode> = {
  idField: 'id',
  fields: ['text'],
  storeFields: [],
  tokenize: searchTerms,
  processTerm: (term) => term,
};

/** A file's identity as the workspace index records it: a rewrite or a replacement changes it. */
export function fileStamp(s: Stats): string {
  return `${s.ino}:${s.size}:${s.ctimeMs}`;
}

/** The search index of one canvas at one revision: cached or just built. */
export class CanvasSearchIndex {
  private constructor(
    readonly ledger: string,
    readonly revision: string,
    private readonly terms: readonly string[],
    private readonly nodes: readonly IndexedNode[],
    private readonly serialized: string,
    private readonly parsed: SerializedIndex | null,
    private stamp: string,
  ) {}

  /**
   * Index a canvas with MiniSearch: every node, sections included, in document order.
   *
   * @param canvas - the canvas at `revision`
   * @param revision - its revision
   */
  static build(canvas: Canvas, revision: string): CanvasSearchIndex {
    const nodes: IndexedNode[] = [];
    const walk = (list: readonly CanvasNode[]) => {
      for (const n of list) {
        nodes.push({ id: n.id, type: n.type, text: nodeSearchText(n) });
        if (n.type === 'section') walk(n.children);
      }
    };
    walk(canvas.children);
    const mini = new MiniSearch<IndexedNode>(OPTIONS);
    mini.addAll(nodes);
    const terms = [...new Set(nodes.flatMap((n) => searchTerms(n.text)))].sort();
    const parsed = mini.toJSON() as unknown as SerializedIndex;
    return new CanvasSearchIndex(canvas.ledger, revision, terms, nodes, JSON.stringify(parsed), parsed, '');
  }

  /**
   * The cached index of a canvas at a revision, or null when there is none for exactly that
   * canvas and revision. A cache is never an authority: a missing, unreadable, foreign (another
   * canvas's, another revision's) or malformed file, or one of another format, reads as null and
   * is rebuilt by the caller.
   *
   * @param gitDir - the repository's `.git` directory
   * @param ledger - the ledger id
   * @param revision - the canvas's current revision
   */
  static cached(gitDir: string, ledger: string, revision: string): CanvasSearchIndex | null {
    let fd: number | null = null;
    try {
      fd = openSync(CanvasSearchIndex.path(gitDir, ledger), 'r');
      const stamp = fileStamp(fstatSync(fd));
      const f = JSON.parse(readFileSync(fd, 'utf8')) as CanvasSearchFile;
      if (f.format !== FORMAT || f.ledger !== ledger || f.revision !== revision || typeof f.index !== 'string') return null;
      if (!Array.isArray(f.terms) || !f.terms.every((t) => typeof t === 'string')) return null;
      if (!Array.isArray(f.nodes) || !f.nodes.every(isIndexedNode)) return null;
      return new CanvasSearchIndex(ledger, revision, f.terms, f.nodes, f.index, null, stamp);
    } catch {
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** `.git/canvas-cache/search/<ledger>.json` (a folder of its own: no ledger id can name another cache there). */
  static path(gitDir: string, ledger: string): string {
    return join(gitDir, 'canvas-cache', 'search', `${ledger}.json`);
  }

  /** Write this index to its cache file (only a cache: a write that fails changes nothing else). */
  save(gitDir: string): void {
    const file: CanvasSearchFile = { format: FORMAT, ledger: this.ledger, revision: this.revision, terms: [...this.terms], nodes: [...this.nodes], index: this.serialized };
    const path = CanvasSearchIndex.path(gitDir, this.ledger);
    saveCacheFile(path, JSON.stringify(file));
    const s = statSync(path, { throwIfNoEntry: false });
    this.stamp = s ? fileStamp(s) : '';
  }

  /**
   * What BM25+ over this canvas needs, from its MiniSearch index: the document count, the average
   * field length, each node's field length and, for each word, the nodes holding it and how often.
   *
   * @throws Error when the serialized index does not load or does not fit the nodes (a corrupt
   *   cache: the caller rebuilds)
   */
  postings(): CanvasPostings {
    const s = this.parsed ?? (JSON.parse(this.serialized) as SerializedIndex);
    const place = new Map(this.nodes.map((n, i) => [n.id, i]));
    const short = new Map<string, number>();
    const lengths: number[] = new Array<number>(this.nodes.length).fill(-1);
    for (const [sid, id] of Object.entries(s.documentIds)) {
      const at = place.get(id);
      const len = s.fieldLength[sid]?.[0];
      if (at === undefined || typeof len !== 'number') throw new Error(`the search index of ${this.ledger} names a node it does not hold`);
      short.set(sid, at);
      lengths[at] = len;
    }
    // A canvas without a node has no average (MiniSearch's is an empty list): nothing reads it.
    const average = this.nodes.length === 0 ? 0 : s.averageFieldLength[0];
    if (lengths.includes(-1) || s.documentCount !== this.nodes.length || typeof average !== 'number') throw new Error(`the search index of ${this.ledger} does not fit its nodes`);
    const terms = new Map<string, number[]>();
    for (const [term, fields] of s.index) {
      const flat: number[] = [];
      for (const [sid, tf] of Object.entries(fields['0'] ?? {})) {
        const at = short.get(sid);
        if (at === undefined || typeof tf !== 'number') throw new Error(`the search index of ${this.ledger} names a node it does not hold`);
        flat.push(at, tf);
      }
      if (flat.length > 0) terms.set(term, flat);
    }
    return {
      ledger: this.ledger,
      revision: this.revision,
      stamp: this.stamp,
      documentCount: s.documentCount,
      averageFieldLength: average,
      nodes: this.nodes.map((n, i) => ({ ...n, fieldLength: lengths[i]! })),
      terms,
    };
  }
}

function isIndexedNode(n: unknown): n is IndexedNode {
  if (typeof n !== 'object' || n === null) return false;
  const o = n as Record<string, unknown>;
  return typeof o.id === 'string' && typeof o.text === 'string' && (NODE_TYPES as readonly unknown[]).includes(o.type);
}
