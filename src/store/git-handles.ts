import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** How long an idle long-lived git process is kept for the next read or write, in milliseconds. */
export const IDLE_MS = 2000;

/**
 * Let a long-lived git process keep this process alive only while a request is outstanding: an
 * idle one never delays the exit of a command or a test (git ends by itself when its input
 * closes).
 */
export function holdOpen(child: ChildProcessWithoutNullStreams, on: boolean): void {
  // The standard streams of a spawned process are sockets, which can be ref'd and unref'd.
  for (const h of [child, child.stdin, child.stdout, child.stderr] as unknown as Array<{ ref(): void; unref(): void }>) {
    if (on) h.ref();
    else h.unref();
  }
}

/**
 * Which repository a path holds now (the device and inode of its `.git`), so that a long-lived
 * git process started in a repository that was since removed or replaced at the same path is
 * never used again: git works in the directory it started in.
 *
 * @param repo - the repository's work tree
 * @returns an identity, or '' when there is no repository there
 */
export function repoIdentity(repo: string): string {
  try {
    const s = statSync(join(repo, '.git'));
    return `${s.dev}:${s.ino}`;
  } catch {
    return '';
  }
}
