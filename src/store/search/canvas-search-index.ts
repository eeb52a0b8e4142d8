import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { NODE_TYPES, type Canvas, type CanvasNode, type NodeType } from '../../model/types.js';
import { saveCacheFile } from '../save-cache-file.js';
import { nodeSearchText } from './node-search-text.js';
import { searchTerms } from './search-terms.js';

/** The cache file's format: a file of another format is not read (it is rebuilt). */
const FORMAT = 1;

/** A node as the index holds it: its id, type and search text, in document order. */
export interface IndexedNode {
  id: string;
  type: NodeType;
  text: string;
}

/**
 * The search index of one canvas at one revision (docs/search.md, "The index cache"), as it is
 * kept in `.git/canvas-cache/search/<ledger>.json`: the nodes, the sorted set of their terms (to
 * tell cheaply whether the canvas can match a query at all) and the MiniSearch index, serialized.
 */
interface CanvasSearchFile {
  format: typeof FORMAT;
  ledger: string;
  revision: string;
  terms: string[];
  nodes: IndexedNode[];
  index: string;
}

/** What the index is built with: one field, words split and lower-cased as the snippet splits them. */
const OPTIONS: Options<IndexedNode> = {
  idField: 'id',
  fields: ['text'],
  storeFields: [],
  tokenize: searchTerms,
  processTerm: (term) => term,
};

/** The search index of one canvas at one revision: cached or just built. */
export class CanvasSearchIndex {
  private loaded: MiniSearch<IndexedNode> | null = null;
  private readonly byId: Map<string, { node: IndexedNode; order: number }>;

  private constructor(
    readonly ledger: string,
    readonly revision: string,
    private readonly terms: readonly string[],
    readonly nodes: readonly IndexedNode[],
    private readonly serialized: string,
  ) {
    this.byId = new Map(nodes.map((node, order) => [node.id, { node, order }]));
  }

  /**
   * Index a canvas: every node, sections included, in document order.
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
    const built = new CanvasSearchIndex(canvas.ledger, revision, terms, nodes, JSON.stringify(mini));
    built.loaded = mini;
    return built;
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
    try {
      const f = JSON.parse(readFileSync(CanvasSearchIndex.path(gitDir, ledger), 'utf8')) as CanvasSearchFile;
      if (f.format !== FORMAT || f.ledger !== ledger || f.revision !== revision || typeof f.index !== 'string') return null;
      if (!Array.isArray(f.terms) || !f.terms.every((t) => typeof t === 'string')) return null;
      if (!Array.isArray(f.nodes) || !f.nodes.every(isIndexedNode)) return null;
      return new CanvasSearchIndex(ledger, revision, f.terms, f.nodes, f.index);
    } catch {
      return null;
    }
  }

  /** `.git/canvas-cache/search/<ledger>.json` (a folder of its own: no ledger id can name another cache there). */
  static path(gitDir: string, ledger: string): string {
    return join(gitDir, 'canvas-cache', 'search', `${ledger}.json`);
  }

  /** Write this index to its cache file (only a cache: a write that fails changes nothing else). */
  save(gitDir: string): void {
    const file: CanvasSearchFile = { format: FORMAT, ledger: this.ledger, revision: this.revision, terms: [...this.terms], nodes: [...this.nodes], index: this.serialized };
    saveCacheFile(CanvasSearchIndex.path(gitDir, this.ledger), JSON.stringify(file));
  }

  /**
   * Whether some node can hold every term: each but the last as a whole word, the last as a word
   * or the start of one (binary searches in the sorted terms; no index is loaded).
   *
   * @param terms - the query's terms, at least one
   */
  mayMatch(terms: readonly string[]): boolean {
    return terms.every((t, i) => {
      const at = lowerBound(this.terms, t);
      const found = this.terms[at];
      return found !== undefined && (i === terms.length - 1 ? found.startsWith(t) : found === t);
    });
  }

  /**
   * The nodes holding every term (the last also as a prefix), by MiniSearch's BM25 score.
   *
   * @param query - the query as given
   * @param types - only nodes of these types, or null for all
   * @returns MiniSearch's results (id, score, the matched terms); empty when none
   * @throws Error when the cached index does not load (a corrupt cache: the caller rebuilds)
   */
  search(query: string, types: ReadonlySet<NodeType> | null): SearchResult[] {
    this.loaded ??= MiniSearch.loadJSON<IndexedNode>(this.serialized, OPTIONS);
    return this.loaded.search(query, {
      combineWith: 'AND',
      prefix: (_term, i, all) => i === all.length - 1,
      fuzzy: false,
      ...(types ? { filter: (r: SearchResult) => types.has(this.byId.get(String(r.id))?.node.type as NodeType) } : {}),
    });
  }

  /** A node of this index and its place in document order, or undefined. */
  node(id: string): { node: IndexedNode; order: number } | undefined {
    return this.byId.get(id);
  }
}

function isIndexedNode(n: unknown): n is IndexedNode {
  if (typeof n !== 'object' || n === null) return false;
  const o = n as Record<string, unknown>;
  return typeof o.id === 'string' && typeof o.text === 'string' && (NODE_TYPES as readonly unknown[]).includes(o.type);
}

function lowerBound(sorted: readonly string[], t: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
