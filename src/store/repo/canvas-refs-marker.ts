import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { saveCacheFile } from '../files/save-cache-file.js';

// `.git/canvas-cache/_refs-main` holds the sha of main at which every `refs/canvas/<ledger>` was
// last seen to agree with main's history (docs/store.md, "Canvas refs"). The name cannot be a
// ledger id's cache file: a ledger id never starts with `_`. Like the rest of the cache it is
// never an authority: it only lets a command skip the walk of main; a missing, unreadable or
// stale marker costs one walk, never a wrong answer.

function markerPath(gitDir: string): string {
  return join(gitDir, 'canvas-cache', '_refs-main');
}

/**
 * The main sha the marker vouches for, or null when there is none.
 *
 * @param gitDir - the repository's `.git` directory
 */
export function readRefsMarker(gitDir: string): string | null {
  try {
    const text = readFileSync(markerPath(gitDir), 'utf8').trim();
    return /^[0-9a-f]{40}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * Record that every canvas ref agrees with main's history at `main` (atomically: a private file
 * renamed into place). Like any cache file, one that cannot be written (a full disk) is skipped:
 * it only costs the next command a walk of main.
 *
 * @param gitDir - the repository's `.git` directory
 * @param main - main's full sha
 */
export function writeRefsMarker(gitDir: string, main: string): void {
  saveCacheFile(markerPath(gitDir), `${main}\n`);
}

/**
 * After a write moved main from `before` to `after` together with its canvas ref (under the
 * repository lock): carry the marker along when it vouched for `before`, or when `after` is the
 * repository's first commit. Otherwise it is left as it is, and the next command walks main.
 * Never throws: the write it follows has already been applied.
 *
 * @param gitDir - the repository's `.git` directory
 * @param before - main before the write (null for the first commit)
 * @param after - main after it
 */
export function advanceRefsMarker(gitDir: string, before: string | null, after: string): void {
  try {
    if (before === null || readRefsMarker(gitDir) === before) writeRefsMarker(gitDir, after);
  } catch {
    // A marker that cannot be written (a full disk) is only a stale cache: the write was applied,
    // and the next command walks main once.
  }
}

/**
 * Whether a canvas ref may have moved since the marker was written (docs/store.md, "Canvas
 * refs"): every command that moves a ref writes the marker after it, so a loose ref file (or,
 * with `ledger` null, the `refs/canvas` folder, whose time changes when any ref in it is renamed
 * into place) newer than the marker was moved by something else, a ref transaction killed after
 * the canvas ref moved and before main did, or a hand `git update-ref`. Costs two `stat` calls,
 * no git process. A packed ref (no loose file) has not moved since it was packed.
 *
 * @param gitDir - the repository's `.git` directory
 * @param ledger - the canvas whose ref is about to be used, or null for every canvas ref
 */
export function refMovedSinceMarker(gitDir: string, ledger: string | null): boolean {
  try {
    const marker = statSync(markerPath(gitDir), { bigint: true }).mtimeNs;
    const ref = statSync(join(gitDir, 'refs', 'canvas', ...(ledger === null ? [] : [ledger])), { bigint: true }).mtimeNs;
    return ref > marker;
  } catch {
    return false;
  }
}
