import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { insideRepository } from '../store/repo/inside-repository.js';
import { noSpace } from '../store/files/no-space.js';
import { sweepAbandoned } from '../store/files/remove-if-abandoned.js';
import type { Workspace } from '../store/repo/workspace.js';

/**
 * Write a command's output file (`-o FILE`). A regular file is written atomically: a temporary
 * file beside it, renamed into place, so a reader sees the old bytes or the new ones, never a
 * half-written page, with the permissions the file had. A symbolic link is followed: the link
 * stays, and the file it names is replaced (or, for a link to nothing yet, created). Anything
 * else that exists (`/dev/null`, `/dev/stdout`, a named pipe) is written to directly: renaming
 * over it would replace the device or pipe with a file. A path inside the workspace's canvas
 * repository, directly or through a link, is refused before anything is written: the file would
 * make the working tree dirty and block the next write (docs/cli.md, "render").
 *
 * @param file - the path given to `-o`
 * @param content - the text to write (UTF-8)
 * @param ws - the workspace whose repository the file must stay out of
 * @returns the absolute path written
 * @throws CanvasError `OUTPUT_IN_REPOSITORY` for a path inside `state/canvas`; `NO_SPACE` naming
 *   the file when its disk is full; `USAGE` when the file cannot be written (no such folder, no
 *   permission, a directory)
 */
export function writeOutput(file: string, content: string, ws: Workspace): string {
  const given = resolve(file);
  const refuse = (e: unknown) =>
    noSpace(e, file) ??
    new CanvasError('USAGE', `cannot write -o ${file}: ${(e as Error).message}`, 'pass a path in a folder that exists and that you may write', {
      file,
    });
  const keepOut = (path: string) => {
    if (!insideRepository(ws, path)) return;
    throw new CanvasError(
      'OUTPUT_IN_REPOSITORY',
      `-o ${file} is inside the canvas repository ${ws.repo}: a file there makes the working tree dirty and blocks the next write`,
      'write the projection outside state/canvas, for example -o page.html',
      { file, repo: ws.repo },
    );
  };
  let target = given;
  let mode: number | null = null;
  try {
    const st = statSync(given);
    if (!st.isFile()) {
      keepOut(given);
      writeFileSync(given, content);
      return given;
    }
    target = realpathSync(given);
    mode = st.mode & 0o7777;
  } catch (e) {
    if (e instanceof CanvasError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw refuse(e);
    // A link to nothing yet: the file it names is created, as a shell's `>` would.
    try {
      if (lstatSync(given).isSymbolicLink()) target = resolve(dirname(given), readlinkSync(given));
    } catch {
      // Nothing at all at that path.
    }
  }
  keepOut(target);
  // The private files of runs killed before their rename, for this file only: their process gone
  // and an hour old (docs/cli.md, "render").
  sweepAbandoned(dirname(target), new RegExp(`^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.([1-9]\\d{0,6})\\.[0-9a-f]{8}\\.tmp$`));
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, content, { flag: 'wx' });
    // The file keeps its permissions.
    if (mode !== null) chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw refuse(e);
  }
  return given;
}
