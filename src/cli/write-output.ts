import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';

/**
 * Write a command's output file (`-o FILE`). A regular file is written atomically: a temporary
 * file beside it, renamed into place, so a reader sees the old bytes or the new ones, never a
 * half-written page, with the permissions the file had. A symbolic link is followed: the link
 * stays, and the file it names is replaced (or, for a link to nothing yet, created). Anything
 * else that exists (`/dev/null`, `/dev/stdout`, a named pipe) is written to directly: renaming
 * over it would replace the device or pipe with a file.
 *
 * @param file - the path given to `-o`
 * @param content - the text to write (UTF-8)
 * @returns the absolute path written
 * @throws CanvasError `USAGE` when the file cannot be written (no such folder, no permission, a
 *   directory, a full device)
 */
export function writeOutput(file: string, content: string): string {
  const given = resolve(file);
  const refuse = (e: unknown) =>
    new CanvasError('USAGE', `cannot write -o ${file}: ${(e as Error).message}`, 'pass a path in a folder that exists and that you may write', {
      file,
    });
  let target = given;
  let mode: number | null = null;
  try {
    const st = statSync(given);
    if (!st.isFile()) {
      writeFileSync(given, content);
      return given;
    }
    target = realpathSync(given);
    mode = st.mode & 0o7777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw refuse(e);
    // A link to nothing yet: the file it names is created, as a shell's `>` would.
    try {
      if (lstatSync(given).isSymbolicLink()) target = resolve(dirname(given), readlinkSync(given));
    } catch {
      // Nothing at all at that path.
    }
  }
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
