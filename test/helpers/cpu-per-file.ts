// The CPU time one test file costs, for finding the heavy ones on a shared machine where wall
// times mean little (docs/testing.md, "A file's CPU"). Loaded only when CANVAS_TEST_CPU
// names a file (vitest.config.ts): each test file appends one line to it,
//   <user+system of the worker, s> <user+system of the processes it spawned and reaped, s> <file>
// read from /proc/self/stat, whose cutime/cstime count every child once it has been waited for
// (the CLI's own git children are in its figure, so in the file's). The first file a worker runs
// is charged the worker's start too (for a file in a process of its own, the whole process); a
// later file in a shared worker, only what it added.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

/** Clock ticks per second of /proc/self/stat on Linux (USER_HZ). */
const TICKS = 100;

function ticks(): { self: number; children: number } {
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // Fields 14-17 of proc(5) are utime, stime, cutime, cstime; f[0] is field 3.
  return { self: f[11]! + f[12]!, children: f[13]! + f[14]! };
}

// Where this file's count starts: at the worker's start for the first file it runs (a global
// outlives the module registry of a shared worker), else when the setup file loads, before the
// test file's own imports.
const seen = globalThis as { canvasCpuCounted?: true };
const start = seen.canvasCpuCounted ? ticks() : { self: 0, children: 0 };
seen.canvasCpuCounted = true;
afterAll(() => {
  const end = ticks();
  const file = relative(process.cwd(), expect.getState().testPath ?? '?');
  const s = (n: number) => (n / TICKS).toFixed(2);
  appendFileSync(process.env.CANVAS_TEST_CPU!, `${s(end.self - start.self)} ${s(end.children - start.children)} ${file}\n`);
});
