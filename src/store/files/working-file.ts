import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkRepoPath } from './check-repo-path.js';
import { noSpace } from './no-space.js';
import { privateName } from './private-name.js';
import { removeQuietly } from './remove-quietly.js';
import { writePrivateFile } from './write-private-file.js';

/**
 * Read a working file of the repository, or null when it does not exist. Never through a link
 * (docs/store.md, "Where the store writes").
 *
 * @throws CanvasError `UNSAFE_PATH` when the file or a directory above it is a link or not a
 *   regular file or directory
 */
export function readWorkingFile(repo: string, path: string): Buffer | null {
  checkRepoPath(repo, path);
  try {
    return readFileSync(join(repo, path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Write a working file atomically: a private file under `.git/canvas-tmp/` (docs/store.md,
 * "Temporary files"), renamed into place,
 * so a crash leaves the old bytes or the new ones, never a mix. The file and every directory
 * above it are checked first, and the private file is created afresh (never opened through
 * whatever was at its name), so nothing is ever written through a link (docs/store.md, "Where
 * the store writes"). A write that fails leaves the old bytes and no private file behind.
 *
 * @throws CanvasError `UNSAFE_PATH` when the file or a directory above it is a link or not a
 *   regular file or directory; `NO_SPACE` naming the file when the disk is full
 */
export function writeWorkingFile(repo: string, path: string, content: string | Buffer): void {
  const name = privateName(path);
  checkRepoPath(repo, path);
  checkRepoPath(repo, `.git/canvas-tmp/${name}`);
  const target = join(repo, path);
  let tmp: string | undefined;
  try {
    tmp = writePrivateFile(join(repo, '.git'), name, content);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(tmp, target);
  } catch (e) {
    if (tmp !== undefined) removeQuietly(tmp);
    throw noSpace(e, target) ?? e;
  }
}
