import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CanvasError } from '../../model/canvas-error.js';
import { checkPrivateFolders } from '../files/check-private-folders.js';
import { createNewFile } from '../files/create-new-file.js';
import { randomHex } from '../files/random-hex.js';

interface LockContent {
  pid: number;
  start: string;
  nonce: string;
}

/** The start time of a process (clock ticks since boot, from /proc), or '' where unknown. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    try {
      process.kill(pid, 0);
      return '';
    } catch {
      return null;
    }
  }
}

const SELF: LockContent = { pid: process.pid, start: startTimeOf(process.pid) ?? '', nonce: '' };

function alive(content: LockContent): boolean {
  const start = startTimeOf(content.pid);
  if (start === null) return false;
  return content.start === '' || start === '' || start === content.start;
}

function readLock(path: string): LockContent | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockContent;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { pid: -1, start: '', nonce: 'unreadable' };
  }
}

/**
 * Create the lock file `path` holding `content`, its private file made in `<privateDir>/canvas-tmp/`;
 * false if it exists (a `NO_SPACE` disk leaves nothing).
 */
function tryCreate(path: string, content: LockContent, privateDir: string): boolean {
  return createNewFile(privateDir, path, JSON.stringify(content));
}

function removeIfSame(path: string, seen: LockContent): void {
  const now = readLock(path);
  if (now && now.nonce === seen.nonce && now.pid === seen.pid) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
}

/**
 * Break a lock whose process is gone, under a second short-lived lock so that two breakers never
 * remove a lock a live process has just taken.
 */
function breakStale(path: string, stale: LockContent, privateDir: string): void {
  const guard = `${path}.break`;
  const mine: LockContent = { ...SELF, nonce: randomHex(12) };
  if (!tryCreate(guard, mine, privateDir)) {
    const holder = readLock(guard);
    if (holder && !alive(holder)) removeIfSame(guard, holder);
    return;
  }
  try {
    removeIfSame(path, stale);
  } finally {
    removeIfSame(guard, mine);
  }
}

/**
 * Hold the repository lock around `fn` (docs/store.md "Concurrency and crashes"): a lock file in `.git` with the
 * holder's pid and start time; a lock whose process is gone is broken. Waits with a growing
 * back-off up to `timeoutMs`.
 *
 * @param gitDir - the repository's `.git` directory (or another folder the lock guards:
 *   `state/publish`, a watcher's folder of `.git/canvas-watch/`)
 * @param fn - the critical section
 * @param timeoutMs - how long to wait, in milliseconds (default `CANVAS_LOCK_TIMEOUT_MS` or 60000)
 * @param privateDir - the folder whose `canvas-tmp/` holds the lock's private files, where a sweep
 *   finds what a killed process left (docs/store.md, "Temporary files"): `gitDir` unless given
 *   (a watcher's lock gives the repository's `.git`)
 * @returns what `fn` returns
 * @throws CanvasError `LOCK_TIMEOUT` naming the holder; `UNSAFE_PATH` when a private folder of
 *   `privateDir` is a link (checked before the lock is taken: docs/store.md, "Where the store writes")
 */
export async function withRepoLock<T>(gitDir: string, fn: () => Promise<T>, timeoutMs?: number, privateDir = gitDir): Promise<T> {
  checkPrivateFolders(privateDir);
  const path = join(gitDir, 'canvas.lock');
  const mine: LockContent = { ...SELF, nonce: randomHex(12) };
  const limit = timeoutMs ?? Number(process.env.CANVAS_LOCK_TIMEOUT_MS ?? 60_000);
  const started = Date.now();
  let delay = 1;
  for (;;) {
    if (tryCreate(path, mine, privateDir)) break;
    const holder = readLock(path);
    if (holder && !alive(holder)) {
      breakStale(path, holder, privateDir);
      continue;
    }
    if (Date.now() - started > limit) {
      throw new CanvasError(
        'LOCK_TIMEOUT',
        `the repository lock ${path} is held by process ${holder?.pid ?? '?'} for more than ${limit} ms`,
        'wait for that writer to finish; a lock whose process is gone is broken by the next writer',
        { holder: holder?.pid },
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 25);
  }
  try {
    return await fn();
  } finally {
    removeIfSame(path, mine);
  }
}
