import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError, type ErrorCode } from '../../model/canvas-error.js';
import { type CanvasSummary, canvasSummary } from '../../model/canvas-summary.js';
import type { Ending, SnapshotEdit } from '../../model/snapshot.js';
import type { Canvas, CanvasNode } from '../../model/types.js';
import { canvasFacts } from '../repo/canvas-facts.js';
import { cachedCanvasTree } from '../repo/canvas-tree-cache.js';
import { eachInFlight } from './each-in-flight.js';
import { editRecord } from '../repo/edit-record.js';
import { listCanvases } from '../repo/list-canvases.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import { RepoReader } from '../repo/repo-reader.js';
import { watchersByCanvas } from '../watch/watch-files.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasFile } from '../repo/layout.js';

/** One canvas as `canvas list` shows it (docs/cli.md, "list"). */
export interface CanvasListEntry {
  ledger: string;
  /** The canvas's revision (full sha): what a write declares as its base. */
  revision: string;
  /** Its summary (docs/projections.md, "The summary"), or null when it holds no text node. */
  summary: CanvasSummary | null;
  /** Its latest commit: who, when, what and why. */
  lastEdit: SnapshotEdit;
  /** How many question nodes are open and answered at this revision. */
  questions: { open: number; answered: number };
  /** The latest ending, freeze or abandon (docs/store.md, "Endings"), or null. */
  ending: Ending | null;
  /** The latest commit whose author has a `run:` part, or null (docs/store.md, "Runs"). */
  lastRunWrite: SnapshotEdit | null;
  /** Whether any run ever wrote to this canvas: false is the sweep's "never written by any run". */
  writtenByRun: boolean;
  /** Who watches it (docs/store.md, "Watches and the inbox"), sorted: the readers' state, not the canvas's. */
  watchers: string[];
}

/** A canvas `canvas list` could not read: it is listed with the refusal, never silently left out. */
export interface CanvasListFailure {
  ledger: string;
  revision: string;
  error: { code: ErrorCode; message: string };
  /** Who watches it, as for a canvas that could be read. */
  watchers: string[];
}

/** What {@link listCanvasEntries} returns. */
export interface CanvasList {
  canvases: Array<CanvasListEntry | CanvasListFailure>;
}

/** Options of {@link listCanvasEntries}. */
export interface ListOptions {
  /** Only the canvases no run ever wrote to (`--unwritten-by-runs`). */
  unwrittenByRuns?: boolean | undefined;
}

/** How many canvases are read at once: their git reads are pipelined through one batch process. */
const IN_FLIGHT = 32;

/** The list cache's format: a file of another format is not read (it is rewritten). */
const LIST_FORMAT = 1;

/** An entry as the cache keeps it: a function of the revision, so without the watchers, which are not. */
type CachedEntry = Omit<CanvasListEntry, 'watchers'>;

/** `.git/canvas-cache/_list.json` (no ledger id begins with `_`): each canvas's entry as of a revision (docs/store.md, "Derived facts cache"). */
interface ListCache {
  format: typeof LIST_FORMAT;
  entries: Record<string, CachedEntry>;
}

function listCachePath(ws: Workspace): string {
  return join(ws.repo, '.git', 'canvas-cache', '_list.json');
}

function readListCache(ws: Workspace): Record<string, CachedEntry> {
  try {
    const cache = JSON.parse(readFileSync(listCachePath(ws), 'utf8')) as ListCache;
    if (cache.format === LIST_FORMAT && typeof cache.entries === 'object' && cache.entries !== null) return cache.entries;
  } catch {
    // No cache, or an unreadable one: every entry is read from the repository.
  }
  return {};
}

function countQuestions(nodes: readonly CanvasNode[], out: { open: number; answered: number }): void {
  for (const n of nodes) {
    if (n.type === 'question') out[n.answered ? 'answered' : 'open'] += 1;
    else if (n.type === 'section') countQuestions(n.children, out);
  }
}

async function entryOf(reader: RepoReader, ledger: string, revision: string): Promise<CachedEntry> {
  const gitDir = join(reader.ws.repo, '.git');
  const [facts, head, bytes] = await Promise.all([canvasFacts(reader, ledger, revision, true), reader.commit(revision), reader.file(revision, canvasFile(ledger))]);
  if (!head || !bytes) throw new CanvasError('INTERNAL', `canvas ${ledger} has no document at its revision ${revision}`, 'run `canvas verify`', { ledger, revision });
  const canvas: Canvas = cachedCanvasTree(gitDir, ledger, bytes);
  const questions = { open: 0, answered: 0 };
  countQuestions(canvas.children, questions);
  const record = async (sha: string) => editRecord((await reader.commit(sha))!);
  const e = facts.ending;
  const ending: Ending | null = e
    ? { kind: e.op === 'freeze' ? 'frozen' : 'abandoned', commit: e.commit, reason: e.reason, author: e.author, date: (await record(e.commit)).date, editedSince: e.editedSince }
    : null;
  return {
    ledger,
    revision,
    summary: canvasSummary(canvas),
    lastEdit: editRecord(head),
    questions,
    ending,
    lastRunWrite: facts.lastRun ? await record(facts.lastRun.commit) : null,
    writtenByRun: facts.lastRun !== null,
  };
}

/**
 * Every canvas of the workspace with what `canvas list` shows (docs/cli.md, "list"), sorted by
 * ledger id: its revision, summary, last edit, open and answered questions, latest ending, the
 * last write by a run, whether any run ever wrote to it, and its watchers (read from the watch
 * files each time: they are not a function of the revision, so the list cache does not hold them). Read from the canvas refs and the
 * caches of `.git/canvas-cache/` (docs/store.md, "Derived facts cache"): an entry cached for a
 * canvas's current revision is used as it is; any other canvas is read from its facts (folded only
 * for commits newer than the facts cache), its head commit and its tree, and the list cache is
 * rewritten. No history is walked in full when the caches are current. A canvas whose stored bytes
 * or history cannot be read is listed as a failure with its code, not left out (and not cached).
 *
 * @param ws - the workspace
 * @param options - `unwrittenByRuns`: only canvases no run ever wrote to
 * @returns `{canvases}`; empty before the first create
 * @throws CanvasError `LOCK_TIMEOUT`, `GIT_FAILED` (from listing the refs)
 */
export async function listCanvasEntries(ws: Workspace, options: ListOptions = {}): Promise<CanvasList> {
  const refs = await listCanvases(ws);
  const out: Array<CachedEntry | Omit<CanvasListFailure, 'watchers'>> = new Array(refs.length);
  const cached = refs.length > 0 ? readListCache(ws) : {};
  let changed = Object.keys(cached).length !== refs.length;
  const reader = new RepoReader(ws);
  try {
    await eachInFlight(refs, IN_FLIGHT, async ({ ledger, revision }, i) => {
      // An entry is a function of the revision (its tree and its chain): one cached for this
      // revision is this canvas's entry now.
      const hit = cached[ledger];
      if (hit?.revision === revision && hit.ledger === ledger) {
        out[i] = hit;
        return;
      }
      changed = true;
      try {
        out[i] = await entryOf(reader, ledger, revision);
      } catch (e) {
        if (!(e instanceof CanvasError)) throw e;
        out[i] = { ledger, revision, error: { code: e.code, message: e.message } };
      }
    });
  } finally {
    reader.close();
  }
  if (changed && refs.length > 0) {
    const entries = Object.fromEntries(out.filter((c): c is CachedEntry => !('error' in c)).map((c) => [c.ledger, c]));
    saveCacheFile(listCachePath(ws), JSON.stringify({ format: LIST_FORMAT, entries } satisfies ListCache));
  }
  const kept = options.unwrittenByRuns ? out.filter((c) => 'error' in c || !c.writtenByRun) : out;
  const watchers = watchersByCanvas(ws);
  return { canvases: kept.map((c) => ({ ...c, watchers: watchers.get(c.ledger) ?? [] })) };
}
