import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { removeQuietly } from './remove-quietly.js';

/**
 * Write a file of `.git/canvas-cache/` atomically: a private file (named after the process) renamed
 * into place, its folder made when missing. A cache is only a cache (docs/store.md, "Derived facts
 * cache"): a write that fails (a full disk) leaves the file as it was and fails nothing else.
 *
 * @param path - the cache file
 * @param text - its new content (text, or bytes)
 */
export function saveCacheFile(path: string, text: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch {
    removeQuietly(tmp);
  }
}
