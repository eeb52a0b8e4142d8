import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeOrHandOff } from '../../src/cli/write-stdout.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('standard output written without its stream', () => {
  it('a full non-blocking pipe: what it took is in it, the rest goes to the stream once, nothing twice', () => {
    const fifo = join(tempDir('canvas-fifo-'), 'out');
    execFileSync('mkfifo', [fifo]);
    // Open for reading and writing, so it needs no other end; non-blocking, as a pipe Node made.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const bytes = Buffer.alloc(1 << 20);
      for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
      const handed: Buffer[] = [];
      writeOrHandOff(fd, bytes, (left) => handed.push(Buffer.from(left)));
      expect(handed.length).toBe(1);
      const taken = bytes.length - handed[0]!.length;
      // A pipe holds 64 KiB by default; whatever it holds here, it is less than all of it.
      expect(taken > 0 && taken < bytes.length).toBe(true);
      const inPipe = Buffer.alloc(taken + 1);
      let got = 0;
      try {
        for (let n = readSync(fd, inPipe, got, inPipe.length - got, null); n > 0; n = readSync(fd, inPipe, got, inPipe.length - got, null)) got += n;
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('EAGAIN');
      }
      expect(got).toBe(taken);
      expect(Buffer.concat([inPipe.subarray(0, got), handed[0]!]).equals(bytes)).toBe(true);
      // An empty pipe takes a small write whole: nothing is handed on.
      const small: Buffer[] = [];
      writeOrHandOff(fd, Buffer.from('Canvas-Base: x\n'), (left) => small.push(left));
      expect(small).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });
});
