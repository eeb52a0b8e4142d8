import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry, SnapshotEdit } from '../../model/snapshot.js';
import type { CanvasCommit } from '../repo/canvas-commit.js';
import { editRecord } from '../repo/edit-record.js';
import { historyEntry } from '../repo/history-entry.js';
import type { RepoReader } from '../repo/repo-reader.js';
import { saveCacheFile } from '../files/save-cache-file.js';

/** How many of a canvas's latest commits the history cache keeps as edit records. */
const RECENT_KEPT = 10;

/** The cache file's content: the histories folded up to `revision`. */
export interface HistoryCache {
  revision: string;
  /** Node id and its entries, oldest first, in the order the nodes were first named. */
  nodes: [string, HistoryEntry[]][];
  /**
   * The chain's latest commits at `revision` as edit records, newest first: {@link RECENT_KEPT}
   * of them, or every commit of a shorter chain. Absent in a cache written before it was kept.
   */
  recent?: SnapshotEdit[];
}

/**
 * The recent edits a cache holds enough of: `edits` of them, or all there are (a chain shorter
 * than what the cache keeps); null when it cannot say.
 */
export function recentOf(cache: HistoryCache | null, edits: number): SnapshotEdit[] | null {
  const recent = cache?.recent;
  if (!Array.isArray(recent) || !recent.every(isEdit)) return null;
  return recent.length >= edits || recent.length < RECENT_KEPT ? recent.slice(0, edits) : null;
}

function cachePath(reader: RepoReader, ledger: string): string {
  // A folder of its own: `<ledger>.history.json` beside the facts could be another ledger's facts.
  return join(reader.ws.repo, '.git', 'canvas-cache', 'history', `${ledger}.json`);
}

/** The histories cached for a canvas (at the revision they were saved for), or null. */
export function cachedHistories(reader: RepoReader, ledger: string): HistoryCache | null {
  return readCache(cachePath(reader, ledger));
}

/**
 * Fold the commits a walk read newest first, down to the cached revision (`cached` when the walk
 * reached it, else null: the walk went to the create), into the histories at `revision`.
 *
 * @param save - write the result back to the cache (reads at the canvas's head)
 */
export function foldHistories(reader: RepoReader, ledger: string, revision: string, newer: readonly CanvasCommit[], cached: HistoryCache | null, save: boolean): Map<string, HistoryEntry[]> {
  const nodes = new Map<string, HistoryEntry[]>(cached ? cached.nodes : []);
  // The latest commits, newest first: the ones read, then the cached ones (without a cache the
  // walk went to the create, so what it read is the whole chain).
  const before = cached === null ? [] : recentOf(cached, RECENT_KEPT);
  const recent = before === null && newer.length < RECENT_KEPT ? undefined : [...newer.slice(0, RECENT_KEPT).map(editRecord), ...(before ?? [])].slice(0, RECENT_KEPT);
  for (let i = newer.length - 1; i >= 0; i -= 1) {
    const c = newer[i]!;
    const node = c.trailers['Canvas-Node'];
    if (node === undefined) continue;
    const list = nodes.get(node) ?? [];
    list.push(historyEntry(c));
    nodes.set(node, list);
  }
  if (save) saveCacheFile(cachePath(reader, ledger), JSON.stringify({ revision, nodes: [...nodes], ...(recent === undefined ? {} : { recent }) } satisfies HistoryCache));
  return nodes;
}

function isEdit(e: unknown): e is SnapshotEdit {
  if (typeof e !== 'object' || e === null) return false;
  const r = e as Record<string, unknown>;
  return (
    typeof r.commit === 'string' && typeof r.op === 'string' && (r.node === null || typeof r.node === 'string') && typeof r.author === 'string' && typeof r.reason === 'string' && typeof r.date === 'string'
  );
}

function readCache(path: string): HistoryCache | null {
  try {
    const c = JSON.parse(readFileSync(path, 'utf8')) as HistoryCache;
    return typeof c.revision === 'string' && /^[0-9a-f]{40}$/.test(c.revision) && Array.isArray(c.nodes) ? c : null;
  } catch {
    return null;
  }
}

/**
 * Every node's history at a revision (docs/projections.md, "Why is this here?"): for each node
 * any commit of the chain up to `revision` named, every such commit oldest first, the entries
 * `canvas history` prints. Folded from the chain the way the facts are: a cache in
 * `.git/canvas-cache/history/<ledger>.json` keyed by revision holds the histories at the
 * revision last saved, and only the commits after it are read; a cache whose revision is not on
 * this chain is ignored (it is never an authority on what the chain says after it).
 *
 * @param reader - the repository reader
 * @param ledger - the ledger id
 * @param revision - a revision of the canvas (a commit on its chain)
 * @param save - write the result back to the cache (reads at the canvas's head)
 * @returns the histories by node id
 * @throws CanvasError `INTERNAL` when the chain is broken
 */
export async function nodeHistories(reader: RepoReader, ledger: string, revision: string, save: boolean): Promise<Map<string, HistoryEntry[]>> {
  const path = cachePath(reader, ledger);
  const cached = readCache(path);
  if (cached?.revision === revision) return new Map(cached.nodes);
  const newer: CanvasCommit[] = [];
  let reached = false;
  for await (const c of reader.chain(revision)) {
    if (c.sha === cached?.revision) {
      reached = true;
      break;
    }
    newer.push(c);
  }
  return foldHistories(reader, ledger, revision, newer, reached ? cached : null, save);
}
