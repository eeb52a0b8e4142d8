import { linkSync } from 'node:fs';
import { relative } from 'node:path';
import { noSpace } from './no-space.js';
import { privateName } from './private-name.js';
import { removeQuietly } from './remove-quietly.js';
import { writePrivateFile } from './write-private-file.js';

/**
 * Create `path` with `text`, atomically and only if no file has that name (docs/store.md,
 * "Concurrency and crashes"): a private file of `.git/canvas-tmp/` ("Temporary files") is written in
 * full, then hard-linked into place, which fails when the name exists; the private file is
 * removed either way. No reader
 * ever sees the file half written, and of two processes creating the same name one wins. The
 * repository lock and the watch files are both made this way.
 *
 * @param gitDir - the repository's `.git` directory, which holds `path`
 * @param path - the file to create; its directory must exist
 * @param text - the file's whole content (UTF-8)
 * @returns true when this call created the file, false when one was there
 * @throws CanvasError `NO_SPACE` when the disk (or quota) is too full for the private file,
 *   which is then not left behind
 */
export function createNewFile(gitDir: string, path: string, text: string): boolean {
  let tmp: string;
  try {
    tmp = writePrivateFile(gitDir, privateName(relative(gitDir, path)), text);
  } catch (e) {
    throw noSpace(e, path) ?? e;
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    removeQuietly(tmp);
  }
}
