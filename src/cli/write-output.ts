import { randomBytes } from 'node:crypto';
import { realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';

/**
 * Write a command's output file (`-o FILE`). A regular file is written atomically: a temporary
 * file beside it, renamed into place, so a reader sees the old bytes or the new ones, never a
 * half-written page; a symbolic link is followed (the link stays, the file it names is
 * replaced). Anything else that exists (`/dev/null`, `/dev/stdout`, a named pipe) is written to
 * directly: renaming over it would replace the device or pipe with a file.
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
  try {
    const st = statSync(given);
    if (!st.isFile()) {
      writeFileSync(given, content);
      return given;
    }
    target = realpathSync(given);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw refuse(e);
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, content, { flag: 'wx' });
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw refuse(e);
  }
  return given;
}
