import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';

/**
 * How long an idle long-lived git process is kept for the next read or write, in milliseconds,
 * unless `CANVAS_GIT_IDLE_MS` says otherwise (docs/store.md, "Long-lived git processes").
 */
export const IDLE_MS = 2000;

/** The largest delay a Node timer holds (a longer one would fire at once). */
const MAX_IDLE_MS = 2 ** 31 - 1;

/**
 * The idle period of the long-lived git processes: `CANVAS_GIT_IDLE_MS` (a whole number of
 * milliseconds, 0 to 2147483647) when set and not empty, else {@link IDLE_MS}. Read each time a
 * process starts.
 *
 * @returns milliseconds
 * @throws CanvasError `USAGE` when the variable is not such a number
 */
export function idleMs(): number {
  const raw = process.env.CANVAS_GIT_IDLE_MS;
  if (raw === undefined || raw === '') return IDLE_MS;
  const ms = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(ms <= MAX_IDLE_MS)) {
    throw new CanvasError(
      'USAGE',
      `CANVAS_GIT_IDLE_MS must be a whole number of milliseconds from 0 to ${MAX_IDLE_MS}, not ${JSON.stringify(raw)}`,
      `unset CANVAS_GIT_IDLE_MS, or set it to a number such as ${IDLE_MS}`,
      { variable: 'CANVAS_GIT_IDLE_MS', value: raw },
    );
  }
  return ms;
}

/**
 * Let a long-lived git process keep this process alive only while a request is outstanding: an
 * idle one never delays the exit of a command or a test (git ends by itself when its input
 * closes).
 */
export function holdOpen(child: ChildProcessWithoutNullStreams, on: boolean): void {
  // The standard streams of a spawned process are sockets, which can be ref'd and unref'd.
  for (const h of [child, child.stdin, child.stdout, child.stderr] as unknown as Array<{ ref?(): void; unref?(): void }>) {
    if (on) h.ref?.();
    else h.unref?.();
  }
}

/**
 * Which repository a path holds now (the device, inode and birth time of its `.git`), so that a
 * long-lived git process started in a repository that was since removed or replaced at the same
 * path is never used again: git works in the directory it started in. The birth time tells a new
 * `.git` from a removed one whose inode number the file system gave out again.
 *
 * @param repo - the repository's work tree
 * @returns an identity, or '' when there is no repository there
 */
export function repoIdentity(repo: string): string {
  try {
    const s = statSync(join(repo, '.git'), { bigint: true });
    return `${s.dev}:${s.ino}:${s.birthtimeNs}`;
  } catch {
    return '';
  }
}
