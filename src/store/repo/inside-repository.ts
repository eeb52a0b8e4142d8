import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Workspace } from './workspace.js';

/** The real path of `path`: its deepest existing ancestor resolved, the rest appended as given. */
function realOf(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realOf(parent), basename(abs));
  }
}

/**
 * Tell whether a path lies inside the workspace's canvas repository (`state/canvas`, its `.git`
 * included), compared as real paths (docs/store.md, "Workspace"): a symbolic link on the way is
 * followed, and a path that does not exist yet is judged by its deepest existing ancestor. A
 * projection written there would make the working tree dirty and block the next write, so
 * `render -o` and `build --out` refuse such a path (`OUTPUT_IN_REPOSITORY`, docs/errors.md).
 *
 * @param ws - the workspace
 * @param path - any path, absolute or relative to the current directory
 * @returns true when the path is the repository or anything under it
 */
export function insideRepository(ws: Workspace, path: string): boolean {
  const rel = relative(realOf(ws.repo), realOf(path));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
