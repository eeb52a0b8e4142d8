import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeQuietly } from './remove-quietly.js';

/**
 * Write a private file of `.git/canvas-tmp/`, complete on disk before the caller renames or links
 * it into place (docs/store.md, "Temporary files"). Created afresh (`wx`: never opened through
 * whatever was at its name); the folder is made the first time, and costs no call after that.
 * Every such file of the store is in that one folder, so the sweep of what killed processes left
 * is one `readdir` of a folder that is empty between writes.
 *
 * @param gitDir - the repository's `.git` directory
 * @param name - the file's name ({@link privateName})
 * @param content - its bytes (a string is written as UTF-8)
 * @param mode - its mode when created (before the umask)
 * @returns the private file's path
 * @throws the file system's error (`ENOSPC` on a full disk), with no private file left behind
 */
export function writePrivateFile(gitDir: string, name: string, content: string | Uint8Array, mode = 0o666): string {
  const path = join(gitDir, 'canvas-tmp', name);
  try {
    try {
      writeFileSync(path, content, { flag: 'wx', mode });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(join(gitDir, 'canvas-tmp'), { recursive: true });
      writeFileSync(path, content, { flag: 'wx', mode });
    }
  } catch (e) {
    removeQuietly(path);
    throw e;
  }
  return path;
}
