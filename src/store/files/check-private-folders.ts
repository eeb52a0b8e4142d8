import { lstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';

/**
 * The folders under a repository's `.git` where a command under the repository lock writes the
 * store's own files: the private files (`canvas-tmp`) and the caches (docs/store.md, "Where the
 * store writes"). The watches' folder is checked by the watcher's lock.
 */
const GIT_FOLDERS = ['canvas-tmp', 'canvas-cache', 'canvas-cache/trees', 'canvas-cache/actors', 'canvas-cache/search'];

/**
 * Refuse a private folder that is a symbolic link or not a directory (docs/store.md, "Where the
 * store writes"): the store would write through it, out of the repository or onto another file
 * system, where the rename into place fails after the write was applied. Judged with `lstat`,
 * before the lock is taken (the lock's own file is made in `canvas-tmp`), so nothing is written.
 * Absent is fine: the store makes it.
 *
 * @param dir - the folder whose `canvas-tmp` holds a lock's private files: a repository's `.git`
 *   (then its caches are checked too), or `state/publish`
 * @param names - the folders of `dir` to check, instead of those
 * @throws CanvasError `UNSAFE_PATH` naming the folder (`data.path`)
 */
export function checkPrivateFolders(dir: string, names: readonly string[] = basename(dir) === '.git' ? GIT_FOLDERS : ['canvas-tmp']): void {
  for (const name of names) {
    const path = join(dir, name);
    let isDir: boolean;
    try {
      isDir = lstatSync(path).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw e;
    }
    if (isDir) continue;
    throw new CanvasError(
      'UNSAFE_PATH',
      `${path} is not a directory of its own (a symbolic link, or a file): the store writes its private files, caches and watches only inside the repository, never through a link, so it writes nothing`,
      `remove it (rm ${path}; what a link points to is left as it is): the store makes the folder again`,
      { path, found: 'not a directory' },
    );
  }
}
