import { fstatSync, writeSync } from 'node:fs';
import { EXIT_CODES } from '../model/canvas-error.js';

/** Set by the CLI's entry once it defers its streams ({@link deferStdio}). */
let deferred = false;
/** Whether `process.stdout` was made since. */
let made = false;

/**
 * Leave `process.stdout` and `process.stderr` unmade until something uses them, and give each
 * the handler when it is made. Node makes a stream for a pipe as a `net.Socket` with its stream
 * state: 4.0 of 162.5 ms of CPU of a `canvas read` whose output is a pipe, measured interleaved
 * (docs/performance.md, "Start-up"). {@link writeStdout} writes to a stdout not yet made with
 * `writeSync`.
 *
 * @param onMade - what to do with each stream once made (the entry's EPIPE handler)
 */
export function deferStdio(onMade: (stream: NodeJS.WriteStream) => void): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    if (!own?.get || !own.configurable) {
      onMade(process[name]);
      if (name === 'stdout') made = true;
      continue;
    }
    const make = own.get;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? false,
      get() {
        const stream = make.call(process) as NodeJS.WriteStream;
        Object.defineProperty(process, name, { configurable: true, enumerable: own.enumerable ?? false, writable: true, value: stream });
        if (name === 'stdout') made = true;
        onMade(stream);
        return stream;
      },
    });
  }
  deferred = true;
}

/**
 * Write text to standard output as `process.stdout.write` would. In the CLI, while nothing has
 * made `process.stdout`, the bytes go to file descriptor 1 with `writeSync` (what Node's stream
 * does for a file), and what a full non-blocking pipe does not take goes through the stream
 * ({@link writeOrHandOff}). Anywhere else (the library, a quiet run, which replaced the stream's
 * `write`), through the stream.
 *
 * @param text - what to write, as UTF-8
 */
export function writeStdout(text: string): void {
  if (!deferred || made) {
    process.stdout.write(text);
    return;
  }
  writeOrHandOff(1, Buffer.from(text, 'utf8'), (left) => process.stdout.write(left));
}

/**
 * Write bytes to a descriptor with `writeSync` until all are written or it would block (EAGAIN:
 * a non-blocking pipe that is full), then hand what is left to `rest`. A closed pipe (EPIPE)
 * ends the process with its exit code, as the entry's stream handler does (src/cli/canvas.ts).
 *
 * @param fd - the descriptor
 * @param bytes - what to write
 * @param rest - takes the bytes not written, once, when the descriptor would block
 */
export function writeOrHandOff(fd: number, bytes: Buffer, rest: (left: Buffer) => void): void {
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CODES.ok);
    if (code !== 'EAGAIN') throw e;
    rest(bytes.subarray(at));
  }
}

/**
 * Whether a descriptor may be a terminal: false for a pipe, a file or a socket, which a stream
 * would call no terminal either (so the question makes no stream); true for a character device.
 */
export function mayBeTerminal(fd: 1 | 2): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
