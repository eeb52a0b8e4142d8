// The library's main entry: importing it against `node -e 0` (docs/library.md, "A light main
// entry"; docs/performance.md, "Library import").
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchContext, type BenchResult, pairs } from '../lib/context.js';
import { interleave, timeProcess } from '../lib/measure.js';

/** A script's last statement: print the process's CPU time so far (user + system, ms). */
const PRINT_CPU = 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));';

/** The CPU milliseconds a `node -e` script printed. */
function cpuOf(script: string): number {
  const out = timeProcess(process.execPath, ['-e', script]).stdout;
  const ms = Number(out);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`node -e printed ${JSON.stringify(out.slice(0, 200))}, not its CPU time`);
  return ms;
}

/**
 * `import('task-canvas')` (the built entry, `dist/lib/index.js`) against `node -e 0`: each process
 * reports its own CPU time (user + system, from its start to the end of the script), which a
 * shared machine's load moves far less than the wall clock.
 */
export async function libraryImport(ctx: BenchContext): Promise<BenchResult> {
  const entry = pathToFileURL(join(ctx.root, 'dist', 'lib', 'index.js')).href;
  // The import must have happened: a missing export fails the run.
  const measured = `import(${JSON.stringify(entry)}).then((m) => { if (typeof m.readCanvas !== 'function') process.exit(3); ${PRINT_CPU} });`;
  const cmp = await interleave(
    ...pairs(ctx, 40, 5),
    () => cpuOf(measured),
    () => cpuOf(PRINT_CPU),
  );
  return {
    name: 'library import',
    measured: 'node -e "import(\'task-canvas\')" (dist/lib/index.js), CPU ms',
    baseline: 'node -e 0, CPU ms',
    target: 'ratio <= 1.3',
    ...cmp,
    pass: cmp.ratio.median <= 1.3,
    figure: 'ratio',
  };
}
