import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';

function what(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isFile()) return 'a regular file';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Check that the store may write `path` inside the repository (docs/store.md, "Where the store
 * writes"): every directory on the way down from the repository (`access/`, `proposals/`,
 * `proposals/<ledger>/`, `.git/canvas-tmp/`) is a real directory or absent, and the file itself
 * is a regular file or absent. Judged with `lstat`, so a symbolic link is never followed: a link
 * is refused whatever it points to, inside the repository or out. The repository directory
 * itself is where the workspace says it is and is not judged.
 *
 * @param repo - the repository directory (`state/canvas`)
 * @param path - the file's path relative to it, with `/` separators (`access/r.json`)
 * @throws CanvasError `UNSAFE_PATH` naming the first entry on the way that is a link or of the
 *   wrong kind (`data.path` relative to the repository, `data.found`)
 */
export function checkRepoPath(repo: string, path: string): void {
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const rel = parts.slice(0, i + 1).join('/');
    let st: Stats;
    try {
      st = lstatSync(join(repo, rel));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Absent from here down: the store makes what is missing (never through a link).
      if (code === 'ENOENT') return;
      throw e;
    }
    const last = i === parts.length - 1;
    if (last ? st.isFile() : st.isDirectory()) continue;
    const full = join(repo, rel);
    throw new CanvasError(
      'UNSAFE_PATH',
      `${full} is ${what(st)}, not ${last ? 'a regular file' : 'a directory'}: the store writes only regular files inside the repository, never through a link, so it writes nothing (${path})`,
      st.isSymbolicLink()
        ? `remove the link (rm ${full}; what it points to is left as it is), then run \`canvas verify\`, which writes the repository's files back from main`
        : `move ${full} out of the repository, then run \`canvas verify\`, which writes the repository's files back from main`,
      { path: rel, file: path, found: what(st) },
    );
  }
}
