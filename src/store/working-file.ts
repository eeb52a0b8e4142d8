import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Read a working file of the repository, or null when it does not exist. */
export function readWorkingFile(repo: string, path: string): Buffer | null {
  try {
    return readFileSync(join(repo, path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Write a working file atomically: a private file under `.git/canvas-tmp/`, renamed into place,
 * so a crash leaves the old bytes or the new ones, never a mix.
 */
export function writeWorkingFile(repo: string, path: string, content: string | Buffer): void {
  const tmpDir = join(repo, '.git', 'canvas-tmp');
  mkdirSync(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${path.replace(/\//g, '__')}.${process.pid}`);
  writeFileSync(tmp, content);
  const target = join(repo, path);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(tmp, target);
}
