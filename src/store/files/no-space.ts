import { CanvasError } from '../../model/canvas-error.js';

/** The errno codes of a write that failed for lack of space: a full disk or a full quota. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * How git says the same, in the C locale the store runs it in. A ref update whose lock file git
 * created but could not fill says only "couldn't write '<lock>'", without the reason: the
 * directory and permissions were fine (the file was just created), and writing 41 bytes to it
 * fails for lack of space (or quota), so that too is read as a full disk.
 */
const GIT_FULL = /No space left on device|Disk quota exceeded|couldn't write '\//;

/**
 * Report a write that failed for lack of space as such (docs/errors.md, `NO_SPACE`): never as
 * an internal error, nor as another writer's doing.
 *
 * @param e - what a write threw (a Node errno error) or what git printed on stderr
 * @param path - the file being written, when the caller knows it (Node's errors from `write`
 *   name none); else the error's own path, or the first path quoted in git's message
 * @returns the `NO_SPACE` error, with `data.path`, or null when `e` is not a lack of space
 */
export function noSpace(e: unknown, path?: string): CanvasError | null {
  let detail: string;
  let where = path;
  if (typeof e === 'string') {
    if (!GIT_FULL.test(e)) return null;
    detail = e.trim().split('\n')[0] ?? e.trim();
    where ??= /'(\/[^']+)'/.exec(e)?.[1];
  } else {
    const err = e as NodeJS.ErrnoException | null;
    if (!err || typeof err.code !== 'string' || !FULL.has(err.code)) return null;
    detail = err.message;
    where ??= err.path;
  }
  return new CanvasError(
    'NO_SPACE',
    `no space left to write ${where ?? 'a file'} (${detail})`,
    'free some space on that disk (or quota), then run the command again; nothing was applied unless the output says so',
    where === undefined ? {} : { path: where },
  );
}
