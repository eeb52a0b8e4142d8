import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { ROOT } from './workspace.js';

/** A TypeScript script bundled to plain JavaScript, for a test to run in processes of its own. */
export interface BundledScript {
  /** The bundle's path: `node <path> ...` runs it. */
  path: string;
  /** Remove the bundle. */
  remove: () => void;
}

/**
 * Bundle a script of the project's TypeScript (a test fixture importing `src/`) into one ES module
 * that `node` runs as it is, so a test that starts the script in many processes pays for its
 * compilation once (about 70 ms) instead of in every process (`node --import tsx` costs about
 * 0.6 s of CPU more per process than the bundle; docs/testing.md, "Scripts as JavaScript"). The
 * packages stay outside the bundle and load from the project's `node_modules`: the bundle is
 * written under `node_modules/.cache/`, in a directory of its own (two test files may bundle at
 * once).
 *
 * With `splitting`, each module the script imports with `import()` stays in a chunk of its own,
 * loaded when first imported, as the built CLI's lazy modules are: a script running the CLI's
 * entry then loads what the command needs (about 0.4 s of CPU for a write) instead of every
 * package any command imports (about 1.4 s).
 *
 * With `builtCli`, the script runs in the built CLI (dist/cli, which the global setup builds when
 * stale), as `canvas` runs: it is bundled as CommonJS into `canvas.cjs` beside copies of the CLI's
 * start and its lazy bundle, and the CLI's entry beside them as `canvas-built.cjs`, which the
 * script requires (test/cli/fixtures/built-signal-writer.ts). The start runs each through V8's
 * code cache, which the first run of a command that exits 0 leaves in the run's
 * `CANVAS_COMPILE_CACHE` (src/cli/start.ts): a write costs what the built CLI's does, about
 * 0.25 s of CPU, instead of about 0.35 s from an ES module bundle, which Node 20 compiles in every
 * process. The path to run is the start's.
 *
 * @param entry - the script, relative to the project's root
 * @param options - `splitting`: keep dynamic imports lazy; `builtCli`: run in the built CLI
 */
export async function bundleScript(entry: string, options: { splitting?: boolean; builtCli?: boolean } = {}): Promise<BundledScript> {
  const parent = join(ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'canvas-test-script-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (options.builtCli) {
    const cli = join(ROOT, 'dist', 'cli');
    await build({
      entryPoints: [join(ROOT, entry)],
      bundle: true,
      packages: 'external',
      external: ['./canvas-built.cjs'],
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
      outfile: join(dir, 'canvas.cjs'),
    });
    copyFileSync(join(cli, 'canvas.cjs'), join(dir, 'canvas-built.cjs'));
    for (const name of ['start.cjs', 'canvas-lazy.cjs']) copyFileSync(join(cli, name), join(dir, name));
    return { path: join(dir, 'start.cjs'), remove };
  }
  const path = join(dir, basename(entry).replace(/\.ts$/, '.mjs'));
  const common: BuildOptions = { entryPoints: [join(ROOT, entry)], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' };
  if (options.splitting) await build({ ...common, outdir: dir, splitting: true, outExtension: { '.js': '.mjs' } });
  else await build({ ...common, outfile: path });
  return { path, remove };
}
