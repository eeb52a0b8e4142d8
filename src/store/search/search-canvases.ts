import { join } from 'node:path';
import { CanvasError, type ErrorCode } from '../../model/canvas-error.js';
import { checkSearchQuery } from '../../model/check-search-query.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { NODE_TYPES, type NodeType } from '../../model/types.js';
import { cachedCanvasTree } from '../repo/canvas-tree-cache.js';
import { type CanvasRef, listCanvases } from '../repo/list-canvases.js';
import { readAccess } from '../read/read-access.js';
import { RepoReader } from '../repo/repo-reader.js';
import { roleOf } from '../repo/role.js';
import type { Workspace } from '../repo/workspace.js';
import type { CanvasPostings } from './canvas-postings.js';
import { CanvasSearchIndex } from './canvas-search-index.js';
import { rankNodes } from './rank-nodes.js';
import { searchSnippet } from './search-snippet.js';
import { phraseMatcher } from './phrase-matcher.js';
import { searchTerms } from './search-terms.js';
import { WorkspaceSearchIndex } from './workspace-search-index.js';
import { canvasFile } from '../repo/layout.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/** How many hits a search returns unless told otherwise. */
const DEFAULT_SEARCH_LIMIT = 20;

/** What {@link searchCanvases} is asked. */
export interface SearchRequest {
  /** The words to find (docs/search.md, "Ranking"); at least one word. */
  query: string;
  /** Only this canvas. */
  ledger?: string | undefined;
  /** Only nodes of these types. */
  types?: readonly string[] | undefined;
  /** At most this many hits, best first (a positive whole number; default 20). */
  limit?: number | undefined;
  /**
   * Only the canvases this who holds a role on (docs/roles.md "Roles": the MCP server's reads need
   * viewer); a canvas whose grants cannot be read is left out too. Unset: every canvas.
   */
  who?: string | undefined;
}

/** One node that matched (docs/search.md, "A hit"). */
export interface SearchHit {
  ledger: string;
  /** The node's id. */
  node: string;
  type: NodeType;
  /** The canvas's current revision: the base to write against. */
  revision: string;
  /** Whether the node holds the query's words one after another. */
  phrase: boolean;
  /** MiniSearch's BM25 score of the node among the nodes of its canvas (higher is better). */
  score: number;
  /** The words around the match, each match between `**` markers (docs/search.md, "The snippet"). */
  snippet: string;
  /** The marked spans of `snippet` as `[start, end)` offsets (UTF-16), markers excluded. */
  marks: Array<[number, number]>;
}

/** A canvas search could not read: reported, never silently left out. */
export interface SearchFailure {
  ledger: string;
  revision: string;
  error: { code: ErrorCode; message: string };
}

/** What {@link searchCanvases} returns. */
export interface SearchResponse {
  query: string;
  /** The query's words as the index compares them (lower case). */
  terms: string[];
  /** How many nodes matched in all (`hits` holds the first `limit` of them). */
  total: number;
  hits: SearchHit[];
  /** How many canvases were searched, and how many of them were indexed afresh by this call. */
  canvases: number;
  indexed: number;
  failures: SearchFailure[];
}

/** A match before its snippet is cut: enough to rank it. */
interface Ranked {
  ledger: string;
  node: string;
  type: NodeType;
  text: string;
  phrase: boolean;
  score: number;
  revision: string;
}

function checkRequest(request: SearchRequest): { terms: string[]; types: Set<NodeType> | null; limit: number } {
  const terms = searchTerms(request.query);
  if (terms.length === 0) {
    throw new CanvasError(
      'USAGE',
      request.query.trim() === '' ? 'the search query is empty' : `the search query ${JSON.stringify(request.query)} holds no word (letters or digits)`,
      'give the words to find: canvas search "idle timeout"',
      { query: request.query },
    );
  }
  for (const t of request.types ?? []) {
    if (!(NODE_TYPES as readonly string[]).includes(t)) throw new CanvasError('USAGE', `--type ${t} is not a node type`, `use one of ${NODE_TYPES.join(', ')}`, { type: t });
  }
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new CanvasError('USAGE', `--limit ${limit} is not a positive whole number`, 'pass --limit 20, say, or leave it out', { limit });
  const types = request.types && request.types.length > 0 ? new Set(request.types as NodeType[]) : null;
  return { terms, types, limit };
}

/** The workspace index to search and which of its canvases to search, with what building it cost. */
interface Searchable {
  index: WorkspaceSearchIndex;
  allowed: Uint8Array;
  indexed: number;
  failures: SearchFailure[];
}

/** A cached canvas index's postings, or null when it does not load (only a cache: it is rebuilt). */
function loadable(cached: CanvasSearchIndex | null): CanvasPostings | null {
  try {
    return cached?.postings() ?? null;
  } catch {
    return null;
  }
}

/**
 * The postings of canvases the workspace index does not hold current: from each canvas's own
 * cache file, or read in one round through the open batch, parsed and checked as every read
 * does, indexed and cached. A canvas whose bytes cannot be read is a failure.
 */
async function postingsOf(reader: RepoReader, refs: readonly CanvasRef[]): Promise<{ parts: CanvasPostings[]; indexed: number; failures: SearchFailure[] }> {
  const gitDir = join(reader.ws.repo, '.git');
  const parts: CanvasPostings[] = [];
  const misses: CanvasRef[] = [];
  for (const r of refs) {
    const part = loadable(CanvasSearchIndex.cached(gitDir, r.ledger, r.revision));
    if (part) parts.push(part);
    else misses.push(r);
  }
  const failures: SearchFailure[] = [];
  const blobs = misses.length === 0 ? [] : await reader.files(misses.map((r) => [r.revision, canvasFile(r.ledger)] as const));
  misses.forEach((r, i) => {
    try {
      const bytes = blobs[i];
      if (!bytes) throw new CanvasError('INTERNAL', `canvas ${r.ledger} has no document at its revision ${r.revision}`, 'run `canvas verify`', { ledger: r.ledger });
      const index = CanvasSearchIndex.build(cachedCanvasTree(gitDir, r.ledger, bytes), r.revision);
      index.save(gitDir);
      parts.push(index.postings());
    } catch (e) {
      if (!(e instanceof CanvasError)) throw e;
      failures.push({ ledger: r.ledger, revision: r.revision, error: { code: e.code, message: e.message } });
    }
  });
  return { parts, indexed: misses.length - failures.length, failures };
}

/**
 * The workspace index holding every canvas searched at its revision (docs/search.md, "The index
 * cache"): the cached one when it holds each of them at its revision with its cache file as it
 * was merged; else the canvases it lacks are taken from their own cache files or indexed afresh,
 * merged with the ones it holds, and (when every canvas is searched) written back. With `saved`
 * null the cached file is not believed.
 */
async function searchable(reader: RepoReader, refs: readonly CanvasRef[], whole: boolean, saved: WorkspaceSearchIndex | null): Promise<Searchable> {
  const gitDir = join(reader.ws.repo, '.git');
  const current = new Set<number>();
  const stale: CanvasRef[] = [];
  for (const r of refs) {
    const held = saved?.canvas(r.ledger);
    // The canvas at the revision the workspace index holds it at: what its own file holds for that
    // revision is what was merged, so the file is not looked at (a thousand stat calls a search).
    if (held && held.revision === r.revision) current.add(held.at);
    else stale.push(r);
  }
  const { parts, indexed, failures } = await postingsOf(reader, stale);
  if (saved && parts.length === 0) {
    const allowed = new Uint8Array(saved.canvasCount);
    for (const c of current) allowed[c] = 1;
    return { index: saved, allowed, indexed, failures };
  }
  const all = [...(saved ? saved.extract(current) : []), ...parts].sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
  const index = WorkspaceSearchIndex.merge(all);
  if (whole && parts.length > 0) index.save(gitDir);
  return { index, allowed: new Uint8Array(index.canvasCount).fill(1), indexed, failures };
}

/**
 * The matches of a query: how many there are, and the best `limit` of them, each with whether it
 * holds the phrase. Only a match's type is read to count it; its text is read (for the phrase)
 * only as far down the scores as the best `limit` need: the matches are taken by score, and once
 * `limit` of them hold the phrase no later one can be among the best. The rest of a node is read
 * for the ones returned. Best first: the whole phrase before scattered words, then the score, then
 * ledger id and document order, which is the order of the nodes' numbers (the index holds its
 * canvases in ledger order, each canvas's nodes in document order).
 */
function rankedOf(s: Searchable, terms: readonly string[], types: ReadonlySet<NodeType> | null, limit: number): { total: number; top: Ranked[] } {
  const holdsPhrase = phraseMatcher(terms);
  const matches = rankNodes(s.index, terms, s.allowed).filter((m) => !types || types.has(s.index.typeOf(m.node)));
  matches.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.node - b.node));
  const phrased: Array<{ node: number; score: number; phrase: boolean }> = [];
  const scattered: Array<{ node: number; score: number; phrase: boolean }> = [];
  for (const m of matches) {
    if (phrased.length >= limit) break;
    const phrase = holdsPhrase(s.index.textOf(m.node));
    (phrase ? phrased : scattered).push({ node: m.node, score: m.score, phrase });
  }
  const top = [...phrased, ...scattered].slice(0, limit).map((m): Ranked => {
    const node = s.index.node(m.node);
    const { ledger, revision } = s.index.canvasOf(s.index.canvasAt(m.node));
    return { ledger, revision, node: node.id, type: node.type, text: node.text, phrase: m.phrase, score: m.score };
  });
  return { total: matches.length, top };
}

/**
 * The words of a node's text the query matched, as MiniSearch reports them: each word but the
 * last as it is, and every word of the text that starts with the last.
 */
function matchedIn(text: string, terms: readonly string[]): Set<string> {
  const whole = new Set(terms.slice(0, -1));
  const last = terms[terms.length - 1]!;
  return new Set(searchTerms(text).filter((t) => whole.has(t) || t.startsWith(last)));
}

/** The canvases a who holds a role on, in the order given. */
async function readableBy(reader: RepoReader, refs: readonly CanvasRef[], who: string): Promise<CanvasRef[]> {
  const out: CanvasRef[] = [];
  for (const r of refs) {
    try {
      const access = await readAccess(reader.ws, { ledger: r.ledger }, reader);
      if (roleOf(access.grants, access.creator, who) !== null) out.push(r);
    } catch (e) {
      if (!(e instanceof CanvasError)) throw e;
      // Grants that cannot be read grant nothing: the canvas is left out.
    }
  }
  return out;
}

/**
 * Find nodes over the current revision of every canvas (docs/search.md): each node holding every
 * word of the query (the last also as the start of a word), ranked (docs/search.md, "Ranking"),
 * with a snippet of the match and the revision to write against. Each canvas's index is cached
 * per revision under `.git/canvas-cache/search/`, and all of them merged into one workspace index
 * (docs/search.md, "The index cache"): a warm search reads that one file; a canvas whose revision
 * moved is indexed again, alone, and merged with the others as they were.
 * Not role-gated (the CLI's reads are not), unless `who` is given: then only the canvases it holds
 * a role on are searched, and the counts are of those (the MCP tool passes its caller).
 *
 * @param ws - the workspace
 * @param request - the query, optionally one ledger, node types, a limit and the who to gate by
 * @returns the hits, best first, with the total, the count of canvases searched and indexed, and
 *   the canvases that could not be read (with their codes)
 * @throws CanvasError `TOO_LONG` (a query over its limits), `USAGE` (an empty query, an unknown type, a bad limit), `BAD_LEDGER_ID`,
 *   `CANVAS_NOT_FOUND` (the `ledger` asked for), `LOCK_TIMEOUT`, `GIT_FAILED`
 */
export async function searchCanvases(ws: Workspace, request: SearchRequest): Promise<SearchResponse> {
  // The query's limits, before any work (docs/search.md, "Limits").
  checkSearchQuery(request?.query);
  const { terms, types, limit } = checkRequest(request);
  const only = request.ledger === undefined ? undefined : checkLedgerId(request.ledger);
  const all = await listCanvases(ws);
  const named = only === undefined ? all : all.filter((r) => r.ledger === only);
  if (only !== undefined && named.length === 0) {
    throw canvasNotFound(ws.root, only);
  }
  const reader = new RepoReader(ws);
  try {
    const refs = request.who === undefined ? named : await readableBy(reader, named, request.who);
    const whole = refs.length === all.length;
    let s = await searchable(reader, refs, whole, WorkspaceSearchIndex.load(join(ws.repo, '.git')));
    let ranked: { total: number; top: Ranked[] };
    try {
      ranked = rankedOf(s, terms, types, limit);
    } catch {
      // The cached workspace index named a node it does not hold: only a cache, merged again.
      s = await searchable(reader, refs, whole, null);
      ranked = rankedOf(s, terms, types, limit);
    }
    const hits = ranked.top.map((r): SearchHit => {
      const snippet = searchSnippet(r.text, matchedIn(r.text, terms), terms);
      return { ledger: r.ledger, node: r.node, type: r.type, revision: r.revision, phrase: r.phrase, score: r.score, snippet: snippet.text, marks: snippet.marks };
    });
    return { query: request.query, terms, total: ranked.total, hits, canvases: refs.length, indexed: s.indexed, failures: s.failures };
  } finally {
    reader.close();
  }
}
