import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How long an entry of the generated workspaces' cache is kept unused: six hours. A key is the
 * hash of the sizes and of the generator's sources, so every change of the sources makes new
 * entries and leaves the old ones unused for good (120 of them, 3.7 GB, after a day of runs). A run
 * uses its entries within minutes of taking them, and the cache may be shared by checkouts of
 * other sources, whose entries are kept while they are in use.
 */
const MAX_AGE_MS = 6 * 3600_000;

/**
 * Remove the entries of a cache directory left unused for longer than six hours: the modification
 * time of an entry is its last use (the generator sets it at each hit). A generation cut short
 * leaves a `<key>.tmp-<pid>` that goes the same way.
 *
 * @param cacheRoot - the cache's directory (absent: nothing to do)
 * @param keep - the entry just used, never removed
 * @param now - the time to judge by, ms since the epoch
 * @returns the names removed
 */
export function pruneCache(cacheRoot: string, keep: string, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(cacheRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name === keep) continue;
    const path = join(cacheRoot, name);
    try {
      if (now - statSync(path).mtimeMs < MAX_AGE_MS) continue;
    } catch {
      continue; // removed meanwhile by another run
    }
    rmSync(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
