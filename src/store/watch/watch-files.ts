import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createNewFile } from '../files/create-new-file.js';
import { privateName } from '../files/private-name.js';
import { removeQuietly } from '../files/remove-quietly.js';
import { writePrivateFile } from '../files/write-private-file.js';
import { checkPrivateFolders } from '../files/check-private-folders.js';
import type { Workspace } from '../repo/workspace.js';

/**
 * The watch files (docs/store.md, "Watches and the inbox"): one file per watcher and canvas,
 * `.git/canvas-watch/<who>/<ledger>.json`, outside the canvas history. A watch is a file of its
 * own so that watchers in several processes never write the same file unless they are the same
 * `who` on the same canvas: no watch is read, changed and written back beside another.
 */

/** One watch: who watches which canvas, since when, and the last commit of it their inbox acknowledged. */
export interface Watch {
  who: string;
  ledger: string;
  /** When the watch began: ISO 8601 UTC. */
  since: string;
  /**
   * The canvas's last commit the watcher has seen (full sha): the inbox shows the chain's commits
   * after it. Null when it is not known (a watch file that could not be read): the inbox then
   * shows the canvas's whole history, so nothing is lost.
   */
  cursor: string | null;
}

const FORMAT = 1;

/** `.git/canvas-watch/` of the workspace's repository. */
export function watchRoot(ws: Workspace): string {
  return join(ws.repo, '.git', 'canvas-watch');
}

/**
 * The folder of one watcher. A `who` is a file name already (`^[A-Za-z0-9][A-Za-z0-9._@:-]*$`);
 * one too long for a file name is named by its hash, after `_`, which no `who` starts with.
 */
export function watcherDir(ws: Workspace, who: string): string {
  return join(watchRoot(ws), who.length <= 128 ? who : `_${createHash('sha256').update(who).digest('hex')}`);
}

/**
 * Make a watcher's folder if it is missing, never through a link (docs/store.md, "Where the store
 * writes"): `.git/canvas-watch` and the watcher's folder are each a directory or absent.
 *
 * @returns the folder
 * @throws CanvasError `UNSAFE_PATH`
 */
export function makeWatcherDir(ws: Workspace, who: string): string {
  const dir = watcherDir(ws, who);
  const gitDir = join(ws.repo, '.git');
  checkPrivateFolders(gitDir, ['canvas-watch', relative(gitDir, dir)]);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function watchPath(ws: Workspace, who: string, ledger: string): string {
  return join(watcherDir(ws, who), `${ledger}.json`);
}

function parseWatch(text: string, who: string, ledger: string): Watch {
  try {
    const w = JSON.parse(text) as Partial<Watch> & { format?: number };
    if (w.format === FORMAT && w.who === who && w.ledger === ledger && typeof w.since === 'string') {
      return { who, ledger, since: w.since, cursor: typeof w.cursor === 'string' && /^[0-9a-f]{40}$/.test(w.cursor) ? w.cursor : null };
    }
  } catch {
    // Not JSON: the watch stands, its cursor is unknown.
  }
  return { who, ledger, since: '', cursor: null };
}

/** The watch of `who` on `ledger`, or null when they do not watch it. */
export function readWatch(ws: Workspace, who: string, ledger: string): Watch | null {
  try {
    return parseWatch(readFileSync(watchPath(ws, who, ledger), 'utf8'), who, ledger);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw e;
  }
}

/** Every watch of `who`, sorted by ledger id. */
export function watchesOf(ws: Workspace, who: string): Watch[] {
  const dir = watcherDir(ws, who);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Watch[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    const w = readWatch(ws, who, name.slice(0, -'.json'.length));
    if (w) out.push(w);
  }
  return out;
}

/** Every watcher's `who` by canvas: one read of each watcher's folder. */
export function watchersByCanvas(ws: Workspace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let dirs: string[];
  try {
    dirs = readdirSync(watchRoot(ws));
  } catch {
    return out;
  }
  for (const dir of dirs.sort()) {
    let names: string[];
    try {
      names = readdirSync(join(watchRoot(ws), dir));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const ledger = name.slice(0, -'.json'.length);
      // The who is the folder's name, unless the folder is a hash: then the file says it.
      const who = dir.startsWith('_') ? whoInFile(join(watchRoot(ws), dir, name)) : dir;
      if (who === null) continue;
      const list = out.get(ledger) ?? [];
      list.push(who);
      out.set(ledger, list);
    }
  }
  for (const list of out.values()) list.sort();
  return out;
}

function whoInFile(path: string): string | null {
  try {
    const w = JSON.parse(readFileSync(path, 'utf8')) as { who?: unknown };
    return typeof w.who === 'string' ? w.who : null;
  } catch {
    return null;
  }
}

function watchText(w: Watch): string {
  return `${JSON.stringify({ format: FORMAT, who: w.who, ledger: w.ledger, since: w.since, cursor: w.cursor })}\n`;
}

/**
 * Create the watch if there is none, atomically ({@link createNewFile}), so that an existing
 * watch and its cursor are never overwritten.
 *
 * @returns true when this call created it, false when the watch was there
 */
export function createWatch(ws: Workspace, w: Watch): boolean {
  const path = join(makeWatcherDir(ws, w.who), `${w.ledger}.json`);
  return createNewFile(join(ws.repo, '.git'), path, watchText(w));
}

/**
 * Replace the watch with `w`, atomically: a private file of `.git/canvas-tmp/` (docs/store.md,
 * "Temporary files"), complete on disk before it is renamed into place.
 */
export function replaceWatch(ws: Workspace, w: Watch): void {
  const path = join(makeWatcherDir(ws, w.who), `${w.ledger}.json`);
  const gitDir = join(ws.repo, '.git');
  const tmp = writePrivateFile(gitDir, privateName(relative(gitDir, path)), watchText(w));
  try {
    renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

/** Remove the watch; false when there was none. */
export function removeWatch(ws: Workspace, who: string, ledger: string): boolean {
  try {
    unlinkSync(watchPath(ws, who, ledger));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
