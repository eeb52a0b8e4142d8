import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';

/** The errno codes of a file the operating system would not let this user open, make or rename. */
const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Report a file the operating system refused this user (a workspace owned by someone else, a
 * read-only directory or mount) as such (docs/errors.md, `PERMISSION_DENIED`): never as a bug.
 * A write's first file is its lock under `.git/`, so a repository this user cannot write refuses
 * the write before anything is applied.
 *
 * @param e - what a command threw (a Node errno error naming its path)
 * @returns the `PERMISSION_DENIED` error, with `data.path` and `data.errno`, or null when `e` is
 *   not such a refusal
 */
export function permissionDenied(e: unknown): CanvasError | null {
  const err = e as NodeJS.ErrnoException | null;
  if (!err || typeof err.code !== 'string' || !DENIED.has(err.code)) return null;
  const where = err.path;
  return new CanvasError(
    'PERMISSION_DENIED',
    `the system refused access to ${where ?? 'a file'} (${err.code}${err.code === 'EROFS' ? ': a read-only file system' : ''})`,
    'run the command as a user who may write the workspace (its owner), or give this user write access to it (state/canvas and its .git); nothing was applied unless the output says so',
    { ...(where === undefined ? {} : { path: where }), errno: err.code },
  );
}

/**
 * Whether the workspace's repository exists (`<repo>/.git`). A path this user may not look into
 * is refused, not taken for a workspace with no canvas yet (whose hint would say to create one).
 *
 * @param repo - the repository directory, `state/canvas` under the workspace
 * @throws CanvasError `PERMISSION_DENIED` naming the path the system refused
 */
export function repoExists(repo: string): boolean {
  const gitDir = join(repo, '.git');
  try {
    statSync(gitDir);
    return true;
  } catch (e) {
    const denied = permissionDenied(e);
    if (denied) throw denied;
    return false;
  }
}
