import { mkdirSync, renameSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { checkPrivateFolders } from './check-private-folders.js';
import { privateName } from './private-name.js';
import { removeQuietly } from './remove-quietly.js';
import { writePrivateFile } from './write-private-file.js';

/** What every cache's path holds after the repository's `.git` (docs/store.md, "Derived facts cache"). */
const CACHE = `${sep}canvas-cache${sep}`;

/**
 * Write a file of `.git/canvas-cache/` atomically: a private file of `.git/canvas-tmp/` (named
 * after the process: docs/store.md, "Temporary files") renamed into place, the cache's folder made
 * when missing. A cache is only a cache (docs/store.md, "Derived facts cache"): a write that
 * fails (a full disk) leaves the file as it was, leaves no private file, and fails nothing else.
 *
 * @param path - the cache file, `<repository>/.git/canvas-cache/...`
 * @param text - its new content (text, or bytes)
 */
export function saveCacheFile(path: string, text: string | Uint8Array): void {
  // The last `/canvas-cache/`: the workspace's own path may hold one, a cache's name never does
  // (no cache has a folder of that name under `.git/canvas-cache/`).
  const at = path.lastIndexOf(CACHE);
  // Not a cache's path: a caller's mistake, skipped as any cache that cannot be written is.
  if (at < 0) return;
  let tmp: string | undefined;
  try {
    // Never through a link (docs/store.md, "Where the store writes"): a cache not saved is only a cache.
    checkPrivateFolders(path.slice(0, at));
    tmp = writePrivateFile(
      path.slice(0, at),
      privateName(
        path
          .slice(at + 1)
          .split(sep)
          .join('/'),
      ),
      text,
    );
    mkdirSync(dirname(path), { recursive: true });
    renameSync(tmp, path);
  } catch {
    if (tmp !== undefined) removeQuietly(tmp);
  }
}
