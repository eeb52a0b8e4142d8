import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CanvasCommit, DOC_OPS, whoOf } from './canvas-commit.js';
import type { RepoReader } from './repo-reader.js';
import { saveCacheFile } from '../files/save-cache-file.js';

/** An idempotency record: what a key (scoped to the canvas and the who) first did. */
interface KeyRecord {
  request: string;
  commit: string;
  op: string;
  node: string | null;
  proposal: string | null;
}

/** A node's moves: where it was first moved from, and the latest move into each parent. */
interface MoveFacts {
  /** The parent the node had at insert (the `Canvas-From` of its first move). */
  insertedIn: string;
  /** For each parent, the latest move into it. */
  into: Record<string, { commit: string; reason: string }>;
}

/**
 * Facts derived from a canvas's chain of commits, folded oldest first. They are a cache keyed by
 * revision (in `.git/canvas-cache/`): always recomputed from the chain when the revision moved,
 * never an authority.
 */
export interface CanvasFacts {
  revision: string;
  /** The `who` of the create commit: the canvas's first owner. */
  creator: string;
  /** The create commit's sha: what a cached `creator` is checked against before it is used. */
  created: string;
  /** Every node id any commit of this canvas ever named (minting never reuses one). */
  ids: string[];
  /** Idempotency keys by `<who> <key>`. */
  keys: Record<string, KeyRecord>;
  /** The latest freeze. */
  frozen: { commit: string; reason: string; author: string } | null;
  /**
   * The latest ending, a freeze or an abandon (docs/store.md, "Endings"), and whether a commit that
   * changed the document (insert, replace, remove, move, an approved proposal) came after it.
   */
  ending: { op: 'freeze' | 'abandon'; commit: string; reason: string; author: string; editedSince: boolean } | null;
  /** The latest commit whose author has a `run:` part (docs/store.md, "Endings"); null when no run ever wrote. */
  lastRun: { commit: string; author: string } | null;
  /** Per node, its moves (for crossings). */
  moves: Record<string, MoveFacts>;
  /** Number of commits in the chain. */
  commits: number;
}

/** Whether an author text has a `run:` part (docs/store.md, "Runs"): a write by a run, not by hand. */
function isRunAuthor(author: string): boolean {
  return author.split('|').some((part) => part.trim().startsWith('run:'));
}

/** Fold one commit (oldest first) into the facts. */
export function foldCommit(f: CanvasFacts, c: CanvasCommit): void {
  f.revision = c.sha;
  f.commits += 1;
  const t = c.trailers;
  if (c.op === 'create') {
    f.creator = whoOf(t['Canvas-Author']);
    f.created = c.sha;
  }
  const node = t['Canvas-Node'];
  if (node !== undefined && !f.ids.includes(node)) f.ids.push(node);
  const key = t['Canvas-Idempotency-Key'];
  if (key !== undefined) {
    const who = whoOf(t['Canvas-Author']);
    f.keys[`${who} ${key}`] = {
      request: t['Canvas-Request'] ?? '',
      commit: c.sha,
      op: c.op ?? '',
      node: node ?? null,
      proposal: t['Canvas-Proposal'] ?? null,
    };
  }
  const author = t['Canvas-Author'] ?? '';
  if (c.op === 'freeze') f.frozen = { commit: c.sha, reason: c.reason, author };
  if (c.op === 'freeze' || c.op === 'abandon') f.ending = { op: c.op, commit: c.sha, reason: c.reason, author, editedSince: false };
  else if (f.ending && c.op !== undefined && DOC_OPS.has(c.op)) f.ending.editedSince = true;
  if (isRunAuthor(author)) f.lastRun = { commit: c.sha, author };
  if (c.op === 'move' && node !== undefined) {
    const from = t['Canvas-From'] ?? 'root';
    const to = t['Canvas-To'] ?? 'root';
    const m = f.moves[node] ?? { insertedIn: from, into: {} };
    m.into[to] = { commit: c.sha, reason: c.reason };
    f.moves[node] = m;
  }
}

/** The facts of a chain with no commit yet. */
export function emptyFacts(): CanvasFacts {
  return { revision: '', creator: '', created: '', ids: [], keys: {}, frozen: null, ending: null, lastRun: null, moves: {}, commits: 0 };
}

/** The create commit cached facts name, when they name one as a sha. */
function createdSha(cached: CanvasFacts): string | null {
  return typeof cached.created === 'string' && /^[0-9a-f]{40}$/.test(cached.created) && typeof cached.revision === 'string' ? cached.created : null;
}

/** True when a commit is this canvas's create, by the cached creator. */
function isCreateBy(c: CanvasCommit | null, ledger: string, cached: CanvasFacts): boolean {
  return c !== null && c.op === 'create' && c.ledger === ledger && c.trailers['Canvas-Previous'] === undefined && whoOf(c.trailers['Canvas-Author']) === cached.creator;
}

/** True when the cached facts' create commit is this canvas's create, by the cached creator. */
async function createdBy(reader: RepoReader, ledger: string, cached: CanvasFacts): Promise<boolean> {
  const sha = createdSha(cached);
  return sha !== null && isCreateBy(await reader.commit(sha), ledger, cached);
}

function readCache(reader: RepoReader, ledger: string): CanvasFacts | null {
  try {
    return JSON.parse(readFileSync(cachePath(reader, ledger), 'utf8')) as CanvasFacts;
  } catch {
    return null;
  }
}

function cachePath(reader: RepoReader, ledger: string): string {
  return join(reader.ws.repo, '.git', 'canvas-cache', `${ledger}.json`);
}

/**
 * The facts of a canvas at a revision: read from the cache when it is at that revision or an
 * ancestor in the chain (then only the newer commits are folded), else from the whole chain.
 *
 * @param reader - the repository reader
 * @param ledger - the ledger id
 * @param revision - the canvas's revision
 * @param save - write the result back to the cache (only under the repository lock)
 */
export async function canvasFacts(reader: RepoReader, ledger: string, revision: string, save = false): Promise<CanvasFacts> {
  let cached = readCache(reader, ledger);
  // The cache is not an authority: the creator decides roles until the first grant, so a cached
  // creator is used only when the create commit it names says so (else the chain is read again).
  if (cached && !(await createdBy(reader, ledger, cached))) cached = null;
  // A cache written before the facts held the ending and the last run is outdated: fold again.
  if (cached && (cached.ending === undefined || cached.lastRun === undefined)) cached = null;
  if (cached && cached.revision === revision) return cached;
  const newer: CanvasCommit[] = [];
  let reached = false;
  for await (const c of reader.chain(revision)) {
    if (cached && c.sha === cached.revision) {
      reached = true;
      break;
    }
    newer.push(c);
  }
  const facts: CanvasFacts = reached && cached ? cached : emptyFacts();
  for (let i = newer.length - 1; i >= 0; i -= 1) foldCommit(facts, newer[i]!);
  if (save) saveFacts(reader, ledger, facts);
  return facts;
}

/**
 * The facts of many canvases at their revisions, as {@link canvasFacts} gives them: the caches are
 * read and their create commits checked in one round trip through the batch; a canvas whose cache
 * is missing, not vouched for or behind its revision is read as {@link canvasFacts} reads it.
 *
 * @param reader - the repository reader
 * @param at - each canvas's ledger id and revision
 * @param save - write what was folded back to the cache (only under the repository lock)
 * @returns each canvas's facts, in the order asked
 */
export async function canvasFactsOfMany(reader: RepoReader, at: ReadonlyArray<{ ledger: string; revision: string }>, save = false): Promise<CanvasFacts[]> {
  const cached = at.map(({ ledger }) => readCache(reader, ledger));
  const shas = cached.map((c) => (c ? createdSha(c) : null));
  const creates = await reader.commits(shas.filter((s): s is string => s !== null));
  const createOf = new Map(creates.filter((c): c is CanvasCommit => c !== null).map((c) => [c.sha, c]));
  const out: CanvasFacts[] = [];
  for (const [i, { ledger, revision }] of at.entries()) {
    const c = cached[i];
    const sha = shas[i];
    if (c && sha && c.revision === revision && isCreateBy(createOf.get(sha) ?? null, ledger, c)) out.push(c);
    else out.push(await canvasFacts(reader, ledger, revision, save));
  }
  return out;
}

/**
 * Write facts to the cache atomically. The cache is only a cache: a write that fails (a full
 * disk) leaves it as it was and fails nothing else.
 */
export function saveFacts(reader: RepoReader, ledger: string, facts: CanvasFacts): void {
  saveCacheFile(cachePath(reader, ledger), JSON.stringify(facts));
}
