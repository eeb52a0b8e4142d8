import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { CanvasError } from '../model/canvas-error.js';
import { decodeUtf8Strict } from '../model/decode-utf8-strict.js';
import { checkInputSize, INPUT_LIMIT } from '../model/size-limits.js';

function notRegular(flag: string, path: string, kind: string): CanvasError {
  return new CanvasError('USAGE', `${flag} ${path} is ${kind}, not a regular file`, `pass the path of a regular file, or ${flag} - to read standard input`, { file: path, rule: 'regular-file' });
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/** Read from `fd` until the end, refusing more than {@link INPUT_LIMIT} bytes. */
function readAll(fd: number, what: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(65_536);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      // A non-blocking standard input with nothing yet: wait a little and read again.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    checkInputSize(total, what, 'bytes', true);
    chunks.push(chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

/**
 * Read a payload file (`--xml-file`, `--markdown`) as docs/cli.md "Payload files" says: a regular
 * file (a named pipe, a device, a directory or a socket is refused before anything is read, so
 * a pipe with no writer never blocks), or `-` for standard input; at most the input limit of
 * docs/canonical.md; decoded as strict UTF-8.
 *
 * @param path - the flag's value; `-` means standard input
 * @param flag - the flag, for messages (`--xml-file`)
 * @returns the file's text (a byte order mark kept: the XML parser drops one)
 * @throws CanvasError `USAGE` (missing, unreadable, not a regular file), `TOO_LARGE`, `BAD_ENCODING`
 */
export function readInputFile(path: string, flag: string): string {
  const what = path === '-' ? `${flag} - (standard input)` : `${flag} ${path}`;
  if (path === '-') return decodeUtf8Strict(readAll(0, what), what);
  let fd: number;
  try {
    // Non-blocking, so that opening a named pipe returns at once instead of waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw new CanvasError('USAGE', `cannot read ${what}: ${(e as Error).message}`, `pass a readable file, or ${flag} - to read standard input`, { file: path });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(flag, path, kindOf(st));
    checkInputSize(st.size, what, 'bytes');
    return decodeUtf8Strict(readAll(fd, what), what);
  } catch (e) {
    if (e instanceof CanvasError) throw e;
    throw new CanvasError('USAGE', `cannot read ${what}: ${(e as Error).message}`, `pass a readable file, or ${flag} - to read standard input`, { file: path });
  } finally {
    closeSync(fd);
  }
}
