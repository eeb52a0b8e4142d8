import { linkSync, writeFileSync } from 'node:fs';
import { noSpace } from './no-space.js';
import { removeQuietly } from './remove-quietly.js';

/**
 * `digits` random hex digits (at most 12), to keep a name or a lock's nonce apart from another
 * process's: uniqueness, not secrecy (the files are in `.git`, made exclusively). From
 * `Math.random` (seeded per process from the system's entropy) rather than `node:crypto`: every
 * command loads this module and the lock's, `canvas read` creates nothing, and loading
 * `node:crypto` (about 20 of Node's own modules) cost a read 1-3.6% of its instructions
 * (docs/performance.md, "Start-up").
 *
 * @param digits - how many hex digits, 1 to 12
 * @returns that many lowercase hex digits
 */
export function randomHex(digits: number): string {
  return Math.floor(Math.random() * 16 ** digits)
    .toString(16)
    .padStart(digits, '0');
}

/**
 * Create `path` with `text`, atomically and only if no file has that name (docs/store.md,
 * "Concurrency and crashes"): a private file beside it is written in full, then hard-linked into
 * place, which fails when the name exists; the private file is removed either way. No reader
 * ever sees the file half written, and of two processes creating the same name one wins. The
 * repository lock and the watch files are both made this way.
 *
 * @param path - the file to create; its directory must exist
 * @param text - the file's whole content (UTF-8)
 * @returns true when this call created the file, false when one was there
 * @throws CanvasError `NO_SPACE` when the disk (or quota) is too full for the private file,
 *   which is then not left behind
 */
export function createNewFile(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${randomHex(8)}.tmp`;
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
  } catch (e) {
    removeQuietly(tmp);
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
