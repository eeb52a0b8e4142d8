import { endianness } from 'node:os';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_TYPES, type NodeType } from '../../model/types.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import type { CanvasPostings } from './canvas-postings.js';
import { fileStamp } from './canvas-search-index.js';

/** The file's format: a file of another format (or byte order) is not read (it is rebuilt). */
const FORMAT = 1;

/** Int32 slots per node in the node table: canvas, field length, id start, text start, text end, type. */
const NODE_SLOTS = 6;

/** One canvas of the file: `[ledger, revision, stamp, documentCount, averageFieldLength, firstNode, nodeCount]`. */
type CanvasRow = [string, string, string, number, number, number, number];

/**
 * The file's first line (JSON, padded so the binary part that follows starts on a 4-byte
 * boundary): the canvases, the sorted words, and where each word's postings start (in pairs).
 */
interface Header {
  format: typeof FORMAT;
  littleEndian: boolean;
  canvases: CanvasRow[];
  terms: string[];
  starts: number[];
  nodes: number;
  textBytes: number;
}

/**
 * The index this process read last, with its file's stamp: a long-lived process (the MCP server)
 * reads the file again only when it was replaced.
 */
let lastLoaded: { path: string; stamp: string; index: WorkspaceSearchIndex } | null = null;

/**
 * The search index of a set of canvases, each at one revision (docs/search.md, "The index
 * cache"): one file, `.git/canvas-cache/search/_workspace.bin`, merged from the canvases' own
 * indexes, so a warm search reads one file and decodes only the postings of the query's words.
 * After the header line come three parts: the postings (`[node, how often]` Int32 pairs, word by
 * word, each word's grouped by canvas), the node table ({@link NODE_SLOTS} Int32 per node, nodes
 * of a canvas together in document order) and the nodes' ids and texts (UTF-8).
 */
export class WorkspaceSearchIndex {
  private readonly byLedger: Map<string, number>;
  /** Each canvas's document count and average field length, by place. */
  private readonly documentCounts: Float64Array;
  private readonly averages: Float64Array;

  private constructor(
    private readonly header: Header,
    private readonly postingsData: Int32Array,
    private readonly table: Int32Array,
    private readonly text: Buffer,
  ) {
    this.byLedger = new Map(header.canvases.map((c, i) => [c[0], i]));
    this.documentCounts = Float64Array.from(header.canvases, (c) => c[3]);
    this.averages = Float64Array.from(header.canvases, (c) => c[4]);
  }

  /** `.git/canvas-cache/search/_workspace.bin` (no ledger id starts with `_`). */
  static path(gitDir: string): string {
    return join(gitDir, 'canvas-cache', 'search', '_workspace.bin');
  }

  /**
   * Merge the indexes of canvases into one.
   *
   * @param parts - each canvas's postings, each ledger once
   */
  static merge(parts: readonly CanvasPostings[]): WorkspaceSearchIndex {
    const canvases: CanvasRow[] = [];
    const nodeCount = parts.reduce((n, p) => n + p.nodes.length, 0);
    const table = new Int32Array(nodeCount * NODE_SLOTS);
    const pieces: string[] = [];
    const words = new Map<string, number[]>();
    let node = 0;
    let bytes = 0;
    parts.forEach((p, c) => {
      canvases.push([p.ledger, p.revision, p.stamp, p.documentCount, p.averageFieldLength, node, p.nodes.length]);
      for (const [term, flat] of p.terms) {
        const into = words.get(term) ?? [];
        if (into.length === 0) words.set(term, into);
        for (let i = 0; i < flat.length; i += 2) into.push(node + flat[i]!, flat[i + 1]!);
      }
      for (const n of p.nodes) {
        const at = node * NODE_SLOTS;
        const idBytes = Buffer.byteLength(n.id);
        table.set([c, n.fieldLength, bytes, bytes + idBytes, bytes + idBytes + Buffer.byteLength(n.text), NODE_TYPES.indexOf(n.type)], at);
        bytes = table[at + 4]!;
        pieces.push(n.id, n.text);
        node += 1;
      }
    });
    const terms = [...words.keys()].sort();
    const starts = [0];
    for (const t of terms) starts.push(starts[starts.length - 1]! + words.get(t)!.length / 2);
    const postings = new Int32Array(starts[starts.length - 1]! * 2);
    for (const [i, t] of terms.entries()) postings.set(words.get(t)!, starts[i]! * 2);
    const header: Header = { format: FORMAT, littleEndian: endianness() === 'LE', canvases, terms, starts, nodes: nodeCount, textBytes: bytes };
    return new WorkspaceSearchIndex(header, postings, table, Buffer.from(pieces.join(''), 'utf8'));
  }

  /**
   * The cached index, or null when there is none or it does not read (of another format or byte
   * order, cut short, or inconsistent): only a cache, rebuilt by the caller.
   *
   * @param gitDir - the repository's `.git` directory
   */
  static load(gitDir: string): WorkspaceSearchIndex | null {
    const path = WorkspaceSearchIndex.path(gitDir);
    let fd: number | null = null;
    try {
      fd = openSync(path, 'r');
      const stamp = fileStamp(fstatSync(fd));
      if (lastLoaded?.path === path && lastLoaded.stamp === stamp) return lastLoaded.index;
      const buf = readFileSync(fd);
      const nl = buf.indexOf(10);
      const h = JSON.parse(buf.toString('utf8', 0, nl)) as Header;
      if (h.format !== FORMAT || h.littleEndian !== (endianness() === 'LE') || !Array.isArray(h.canvases) || !Array.isArray(h.terms) || !Array.isArray(h.starts)) return null;
      if (h.starts.length !== h.terms.length + 1 || h.starts[0] !== 0 || !h.terms.every((t, i) => typeof t === 'string' && h.starts[i]! <= h.starts[i + 1]!)) return null;
      const pairs = h.starts[h.starts.length - 1]!;
      const body = nl + 1;
      const tableAt = body + pairs * 8;
      const textAt = tableAt + h.nodes * NODE_SLOTS * 4;
      if (body % 4 !== 0 || !Number.isInteger(pairs) || !Number.isInteger(h.nodes) || textAt + h.textBytes !== buf.length) return null;
      const ints = (from: number, count: number) => (buf.byteOffset % 4 === 0 ? new Int32Array(buf.buffer, buf.byteOffset + from, count) : new Int32Array(buf.subarray(from, from + count * 4).buffer.slice(0)));
      const index = new WorkspaceSearchIndex(h, ints(body, pairs * 2), ints(tableAt, h.nodes * NODE_SLOTS), buf.subarray(textAt));
      if (!index.consistent()) return null;
      lastLoaded = { path, stamp, index };
      return index;
    } catch {
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** Write the index to its file (only a cache: a write that fails changes nothing else). */
  save(gitDir: string): void {
    let line = JSON.stringify(this.header);
    while ((Buffer.byteLength(line) + 1) % 4 !== 0) line += ' ';
    const head = Buffer.from(`${line}\n`, 'utf8');
    const ints = (a: Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    saveCacheFile(WorkspaceSearchIndex.path(gitDir), Buffer.concat([head, ints(this.postingsData), ints(this.table), this.text]));
  }

  /** Every canvas row and every node row names what the file holds. */
  private consistent(): boolean {
    const { canvases, nodes, textBytes } = this.header;
    let next = 0;
    for (const [i, c] of canvases.entries()) {
      if (
        !Array.isArray(c) ||
        typeof c[0] !== 'string' ||
        typeof c[1] !== 'string' ||
        typeof c[2] !== 'string' ||
        c[5] !== next ||
        !Number.isInteger(c[6]) ||
        typeof c[3] !== 'number' ||
        typeof c[4] !== 'number'
      )
        return false;
      for (let n = c[5]; n < c[5] + c[6]; n += 1) if (this.table[n * NODE_SLOTS] !== i) return false;
      next += c[6];
    }
    if (next !== nodes) return false;
    let at = 0;
    for (let n = 0; n < nodes; n += 1) {
      const s = n * NODE_SLOTS;
      if (this.table[s + 2] !== at || this.table[s + 3]! < at || this.table[s + 4]! < this.table[s + 3]! || NODE_TYPES[this.table[s + 5]!] === undefined) return false;
      at = this.table[s + 4]!;
    }
    return at === textBytes;
  }

  /** How many canvases the index holds; canvas `c` is the `c`-th of them. */
  get canvasCount(): number {
    return this.header.canvases.length;
  }

  /** A canvas's place in the index with the revision and cache file stamp it was indexed at, or undefined. */
  canvas(ledger: string): { at: number; revision: string; stamp: string } | undefined {
    const at = this.byLedger.get(ledger);
    if (at === undefined) return undefined;
    const c = this.header.canvases[at]!;
    return { at, revision: c[1], stamp: c[2] };
  }

  /** How many nodes the index holds; node `n` is the `n`-th of them. */
  get nodeCount(): number {
    return this.header.nodes;
  }

  /** Canvas `c`'s ledger and revision. */
  canvasOf(c: number): { ledger: string; revision: string } {
    const row = this.header.canvases[c]!;
    return { ledger: row[0], revision: row[1] };
  }

  /** Canvas `c`'s node count (MiniSearch's document count). */
  documentCount(c: number): number {
    return this.documentCounts[c]!;
  }

  /** Canvas `c`'s average field length. */
  averageFieldLength(c: number): number {
    return this.averages[c]!;
  }

  /** The words starting with `prefix` (the word itself first when held), sorted, as `[word, word number]`. */
  wordsFrom(prefix: string, exact: boolean): Array<[string, number]> {
    const { terms } = this.header;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: Array<[string, number]> = [];
    for (let i = lo; i < terms.length && terms[i]!.startsWith(prefix); i += 1) {
      out.push([terms[i]!, i]);
      if (exact) break;
    }
    return exact && out[0]?.[0] !== prefix ? [] : out;
  }

  /** Word `w`'s postings: `[node, how often]` pairs, flat. */
  postings(w: number): Int32Array {
    return this.postingsData.subarray(this.header.starts[w]! * 2, this.header.starts[w + 1]! * 2);
  }

  /**
   * Node `n`'s canvas.
   *
   * @throws Error when the index holds no node `n` (a corrupt cache file: the caller rebuilds)
   */
  canvasAt(n: number): number {
    if (!(n >= 0 && n < this.header.nodes)) throw new Error(`the workspace search index names node ${n} of ${this.header.nodes}`);
    return this.table[n * NODE_SLOTS]!;
  }

  /** Node `n`'s field length (its count of distinct words). */
  fieldLength(n: number): number {
    return this.table[n * NODE_SLOTS + 1]!;
  }

  /** Node `n`'s type. */
  typeOf(n: number): NodeType {
    return NODE_TYPES[this.table[n * NODE_SLOTS + 5]!]!;
  }

  /** Node `n`'s search text. */
  textOf(n: number): string {
    const s = n * NODE_SLOTS;
    return this.text.toString('utf8', this.table[s + 3]!, this.table[s + 4]!);
  }

  /** Node `n`'s id, type and search text. */
  node(n: number): { id: string; type: NodeType; text: string } {
    const s = n * NODE_SLOTS;
    const t = this.table;
    return { id: this.text.toString('utf8', t[s + 2]!, t[s + 3]!), type: NODE_TYPES[t[s + 5]!]!, text: this.text.toString('utf8', t[s + 3]!, t[s + 4]!) };
  }

  /**
   * The postings of some of the canvases, as they were merged (one pass over every word's
   * postings), to merge again with the canvases indexed since.
   *
   * @param keep - the canvases to take, by their place
   */
  extract(keep: ReadonlySet<number>): CanvasPostings[] {
    const parts = new Map<number, CanvasPostings>();
    for (const c of [...keep].sort((a, b) => a - b)) {
      const [ledger, revision, stamp, documentCount, averageFieldLength, first, count] = this.header.canvases[c]!;
      const nodes = Array.from({ length: count }, (_, i) => {
        const n = this.node(first + i);
        return { ...n, fieldLength: this.table[(first + i) * NODE_SLOTS + 1]! };
      });
      parts.set(c, { ledger, revision, stamp, documentCount, averageFieldLength, nodes, terms: new Map() });
    }
    this.header.terms.forEach((term, w) => {
      const p = this.postings(w);
      for (let i = 0; i < p.length; i += 2) {
        const c = this.table[p[i]! * NODE_SLOTS]!;
        const part = parts.get(c);
        if (!part) continue;
        const flat = part.terms.get(term) ?? [];
        if (flat.length === 0) part.terms.set(term, flat);
        flat.push(p[i]! - this.header.canvases[c]![5], p[i + 1]!);
      }
    });
    return [...parts.values()];
  }
}
