// What every benchmark gets: the mode, the project root, the CLI and the git conventions of the
// baselines, and a place for scratch copies.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitConfigArgs, gitEnvironment } from '../../src/store/git/git.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import type { Stats } from './measure.js';
import { timeProcess } from './measure.js';

/** The run's settings. */
export interface BenchContext {
  quick: boolean;
  /** The project root. */
  root: string;
  /** Scratch directory for this run (removed at the end). */
  scratch: string;
  log: (line: string) => void;
}

/** One benchmark's figures. */
export interface BenchResult {
  name: string;
  measured: string;
  baseline: string;
  target: string;
  /** Per-pair ratio measured / baseline. */
  ratio?: Stats;
  /** Milliseconds of the measured side. */
  a?: Stats;
  /** Milliseconds of the baseline. */
  b?: Stats;
  /**
   * CPU time (user + sys of the process and its children, milliseconds) of each side and the
   * per-pair ratio, for benchmarks whose sides are processes; the stable figure on a shared machine.
   */
  cpu?: { a: Stats; b: Stats; ratio: Stats };
  /** True when the target is met, false when missed, null when there is none. */
  pass: boolean | null;
  /** What the target was checked on, in words (for the table). */
  figure: string;
  detail?: Record<string, unknown>;
  /** Not run: a prerequisite (pandoc) could not be had; `figure` says why. */
  skipped?: boolean;
}

/**
 * Measured pairs in a quick run (docs/performance.md, "The quick run"): the fewest that still give
 * each row a median and a spread, so that the run keeps its budget.
 */
const QUICK_PAIRS = 3;

/**
 * The measured and the unmeasured (warm-up) pairs of an interleaved comparison: the full run's,
 * or a quick run's three and one, unless the row names its own (`quick`): a row whose per-pair
 * ratio spreads so far that the median of three misses its target by chance says how many it
 * needs, and why, where it calls this.
 */
export function pairs(ctx: BenchContext, full: number, warmup: number, quick?: { runs: number; warmup: number }): [runs: number, warmup: number] {
  if (!ctx.quick) return [full, warmup];
  return quick ? [Math.min(quick.runs, full), Math.min(quick.warmup, warmup)] : [Math.min(QUICK_PAIRS, full), Math.min(1, warmup)];
}

/** Make a fresh scratch directory for a run. */
export function makeScratch(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'canvas-bench-run-')));
}

/** Copy a generated workspace into the scratch directory (for benchmarks that write). */
export function copyWorkspace(ctx: BenchContext, ws: Workspace, name: string): Workspace {
  const dir = join(ctx.scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(ws.root, dir, { recursive: true });
  return resolveWorkspace({ workspace: dir });
}

/** The environment of a baseline git process: the store's own (hooks off, no global config). */
export function baselineGitEnv(): NodeJS.ProcessEnv {
  return gitEnvironment();
}

/** Arguments before a baseline git command: the store's configuration and an identity. */
export function baselineGitArgs(repo: string): string[] {
  return [...gitConfigArgs(repo), '-c', 'user.name=bench', '-c', 'user.email=bench@example.org'];
}

/**
 * A plain git clone of a workspace's repository with its files checked out and an index: the
 * repository a team would commit the same bytes to with `git commit`.
 */
export function baselineRepo(ctx: BenchContext, ws: Workspace, name: string): string {
  const dir = join(ctx.scratch, name);
  rmSync(dir, { recursive: true, force: true });
  timeProcess('git', ['clone', '-q', '-b', 'main', ws.repo, dir], { env: baselineGitEnv() });
  return dir;
}

/** The command line of the built CLI. */
export function cliCommand(ctx: BenchContext): [string, string[]] {
  return [process.execPath, [join(ctx.root, 'bin', 'canvas.js')]];
}

/** The environment of a CLI process in a workspace. */
export function cliEnv(ws: Workspace, author: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: author, NO_COLOR: '1' };
  delete env.NODE_OPTIONS;
  return env;
}
