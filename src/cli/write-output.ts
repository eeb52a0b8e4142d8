import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';

/**
 * Write a command's output file atomically (`-o FILE`): a temporary file beside it, renamed into
 * place, so a reader sees the old bytes or the new ones, never a half-written page.
 *
 * @param file - the path given to `-o`
 * @param content - the text to write (UTF-8)
 * @returns the absolute path written
 * @throws CanvasError `USAGE` when the file cannot be written (no such folder, no permission)
 */
export function writeOutput(file: string, content: string): string {
  const target = resolve(file);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, content, { flag: 'wx' });
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new CanvasError('USAGE', `cannot write -o ${file}: ${(e as Error).message}`, 'pass a path in a folder that exists and that you may write', {
      file,
    });
  }
  return target;
}
