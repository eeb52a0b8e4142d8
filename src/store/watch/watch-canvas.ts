import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { parseAuthor } from '../../model/parse-author.js';
import { canvasNotFoundFor } from '../repo/canvas-not-found.js';
import { RepoReader } from '../repo/repo-reader.js';
import { withRepoLock } from '../repo/repo-lock.js';
import { createWatch, makeWatcherDir, readWatch, removeWatch, type Watch } from './watch-files.js';
import type { Workspace } from '../repo/workspace.js';

/** What `canvas watch` and `canvas unwatch` take: the canvas and the author whose `who` watches. */
export interface WatchRequest {
  ledger: string;
  /** `who[ | step:S][ | run:R]` or `who | by-hand`: the watch is the `who`'s. */
  author: string;
}

/** What {@link watchCanvas} and {@link unwatchCanvas} return. */
export interface WatchResult {
  ledger: string;
  who: string;
  /** Whether `who` watches the canvas after the call. */
  watching: boolean;
  /** True when the call changed something: a new watch, or one removed. */
  changed: boolean;
  /** The watch as it stands (null after unwatch): since when, and the inbox's cursor. */
  watch: Watch | null;
}

/**
 * Hold the lock of one watcher's folder around `fn`: the watch commands and the inbox's
 * acknowledgement of one `who` take turns, so a cursor is never moved back by a slower process,
 * and an unwatch is never undone by an acknowledgement that read the watch before it. The lock's
 * private files are made in the repository's `.git/canvas-tmp/`, where every write's sweep and
 * `canvas verify` find what a killed process left (docs/store.md, "Temporary files").
 */
export function withWatcherLock<T>(ws: Workspace, who: string, fn: () => Promise<T>): Promise<T> {
  return withRepoLock(makeWatcherDir(ws, who), fn, undefined, join(ws.repo, '.git'));
}

/**
 * Start watching a canvas (docs/store.md, "Watches and the inbox"): its later changes reach the
 * `who`'s inbox. A new watch's cursor is the canvas's revision now; watching a canvas already
 * watched changes nothing (the cursor stays, so nothing unread is skipped). Written outside the
 * canvas history, under `.git/canvas-watch/`; never gated by a role on the command line (reads
 * are not either; the MCP tool needs viewer).
 *
 * @param ws - the workspace
 * @param req - the ledger id and the author
 * @returns the watch; `changed` false when it was already there
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_AUTHOR`, `CANVAS_NOT_FOUND`, `LOCK_TIMEOUT`
 */
export async function watchCanvas(ws: Workspace, req: WatchRequest): Promise<WatchResult> {
  const ledger = checkLedgerId(req.ledger);
  const { who } = parseAuthor(req.author);
  const reader = new RepoReader(ws);
  let revision: string | null;
  try {
    revision = await reader.revision(ledger);
    if (!revision) throw await canvasNotFoundFor(ws.root, ledger, { name: 'watch' }, reader.exists() ? reader : null);
  } finally {
    reader.close();
  }
  const cursor = revision;
  return withWatcherLock(ws, who, async () => {
    const changed = createWatch(ws, { who, ledger, since: new Date().toISOString(), cursor });
    return { ledger, who, watching: true, changed, watch: readWatch(ws, who, ledger) };
  });
}

/**
 * Stop watching a canvas (docs/store.md, "Watches and the inbox"): its watch file, with its
 * cursor, is removed; the canvas's history is not touched. A later write by the same `who`
 * makes them a watcher again, from that write on.
 *
 * @param ws - the workspace
 * @param req - the ledger id and the author
 * @returns `watching: false`, `changed: true`
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_AUTHOR`, `NOT_WATCHING` (the `who` does not watch it:
 *   nothing written), `LOCK_TIMEOUT`
 */
export async function unwatchCanvas(ws: Workspace, req: WatchRequest): Promise<WatchResult> {
  const ledger = checkLedgerId(req.ledger);
  const { who } = parseAuthor(req.author);
  const notWatching = () =>
    new CanvasError('NOT_WATCHING', `${who} does not watch canvas ${ledger}`, `see what ${who} watches: canvas inbox --author "${who}"; start with canvas watch ${ledger}`, {
      ledger,
      who,
    });
  if (!readWatch(ws, who, ledger)) throw notWatching();
  return withWatcherLock(ws, who, async () => {
    if (!removeWatch(ws, who, ledger)) throw notWatching();
    return { ledger, who, watching: false, changed: true, watch: null };
  });
}

/**
 * Make `who` a watcher of a canvas they just wrote to or read over MCP (docs/store.md, "Watches
 * and the inbox"), with the cursor at the revision they saw, unless they watch it already (then
 * nothing changes). Best effort by design: a write has already happened when this runs, and it
 * must not fail, or wait, because its watch could not be recorded (a full disk, a folder that is
 * not writable); such a failure is swallowed and the `who` is simply not a watcher yet.
 *
 * @param ws - the workspace
 * @param who - the caller's `who`
 * @param ledger - the canvas
 * @param revision - the revision the caller wrote or read (full sha)
 * @returns true when a new watch was recorded
 */
export function recordWatch(ws: Workspace, who: string, ledger: string, revision: string): boolean {
  try {
    if (readWatch(ws, who, ledger)) return false;
    return createWatch(ws, { who, ledger, since: new Date().toISOString(), cursor: revision });
  } catch {
    return false;
  }
}
