// `npm run bench [-- --quick] [-- --only a,b] [-- --strict]` (`-- --help` for the usage): run
// every benchmark with its baseline interleaved, print a table, write bench/results.json. A
// missed target is reported, not fatal (unless --strict); a benchmark that crashes or an edit
// that is lost fails the run; an unknown option or name exits 2 before anything runs.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { verifyWorkspace } from '../src/store/verify/verify-workspace.js';
import { BENCH_NAMES, BENCHMARKS, runWorkspaces } from './benchmarks/index.js';
import { type GrowthRow, growth } from './benchmarks/growth.js';
import { type BenchRun, parseBenchArgs } from './lib/bench-args.js';
import { type BenchContext, type BenchResult, makeScratch } from './lib/context.js';
import { generateWorkspace, type WorkspaceSpec } from './lib/generate-workspace.js';
import type { Stats } from './lib/measure.js';
import { editWorkspace } from './lib/workspaces.js';

const ROOT = join(import.meta.dirname, '..');

/** The arguments, read before anything is generated or measured (bench/lib/bench-args.ts). */
const asked = parseBenchArgs(process.argv.slice(2), BENCH_NAMES);

function tool(cmd: string, argv: string[]): string {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
  } catch {
    return 'not installed';
  }
}

function machine(): Record<string, unknown> {
  return {
    nproc: tool('nproc', []),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git: tool('git', ['--version']),
    pandoc: tool('pandoc', ['--version']),
    loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/**
 * What the quick run may take from nothing (no generated workspace cached) on this two-core
 * machine with its cores free: its first line says when it cannot (docs/performance.md, "The
 * quick run").
 */
const QUICK_BUDGET_S = 60;

/**
 * The first line of a run: the mode, the machine, and for a quick run whether it can keep its
 * budget, which it cannot while the machine's load average is above its cores: the benchmarks
 * then wait for a core as long as they run on one.
 */
function firstLine(quick: boolean, info: Record<string, unknown>): string {
  const load = (info.loadAverageAtStart as number[])[0] ?? 0;
  const cores = Number(info.nproc) || 1;
  const head = `canvas bench (${quick ? 'quick' : 'full'}): ${info.nproc} cores, ${info.cpu}, node ${info.node}, ${info.git}, load ${JSON.stringify(info.loadAverageAtStart)}`;
  if (!quick) return head;
  return load > cores ? `canvas bench (quick) cannot finish within its ${QUICK_BUDGET_S} s: load ${load} on ${cores} cores (it needs them free); ${head}` : `${head}; budget ${QUICK_BUDGET_S} s from nothing`;
}

/** What a workspace costs to generate, roughly: the nodes serialized over its commits. */
function generationCost(s: WorkspaceSpec): number {
  const big = s.bigNodes > 0 ? Math.max(s.bigCommits ?? s.bigNodes + 1, s.bigNodes + 1) : 0;
  return big * s.bigNodes + (s.commits - big) * ((s.minNodes + s.maxNodes) / 2 + s.canvases / 10);
}

/**
 * Generate (or find in the cache) every workspace the run reads before anything is measured, on
 * both cores: the larger ones first, each to the lane with less work so far, one lane in this
 * process and one in a process beside it (bench/generate.ts). From nothing, a quick run's
 * workspaces cost about 15 s of CPU: on two cores, about half that of its wall time.
 *
 * @returns the seconds it took
 */
async function generateOnBothCores(specs: readonly WorkspaceSpec[], log: (s: string) => void): Promise<number> {
  const t0 = Date.now();
  const lanes: [WorkspaceSpec[], WorkspaceSpec[]] = [[], []];
  const work: [number, number] = [0, 0];
  for (const s of [...specs].sort((a, b) => generationCost(b) - generationCost(a))) {
    const lane = work[0] <= work[1] ? 0 : 1;
    lanes[lane].push(s);
    work[lane] += generationCost(s);
  }
  let beside: Promise<void> = Promise.resolve();
  if (lanes[1].length > 0) {
    const child = spawn(process.execPath, [...process.execArgv, join(ROOT, 'bench', 'generate.ts'), JSON.stringify(lanes[1])], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      said += d;
      const lines = said.split('\n');
      said = lines.pop()!;
      for (const l of lines) log(l);
    });
    beside = new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench/generate.ts exited ${code}: ${said}`))));
    });
  }
  try {
    for (const s of lanes[0]) await generateWorkspace(s, ROOT, log);
  } finally {
    await beside;
  }
  return (Date.now() - t0) / 1000;
}

const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');

const spread = (s: Stats | undefined) => (s ? `${f(s.p25)}-${f(s.p75)} (${f(s.min)}-${f(s.max)})` : '');

function row(r: BenchResult): string[] {
  return [
    r.name,
    r.ratio ? f(r.ratio.median) : '',
    spread(r.ratio),
    r.cpu ? f(r.cpu.ratio.median) : '',
    spread(r.cpu?.ratio),
    r.a ? f(r.a.median, 1) : '',
    r.b ? f(r.b.median, 1) : '',
    r.cpu ? `${f(r.cpu.a.median, 1)} / ${f(r.cpu.b.median, 1)}` : '',
    r.target,
    r.skipped ? 'skipped' : r.pass === null ? '-' : r.pass ? 'met' : 'MISSED',
    r.figure === 'ratio' || r.figure === 'median ms' ? '' : r.figure,
  ];
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function growthTable(rows: GrowthRow[]): string {
  return table(
    ['axis', 'value', 'nodes', 'canvas commits', 'repo commits', 'canvases', 'edit ms', 'read ms', 'history ms'],
    rows.map((r) => [
      r.axis,
      String(r.value),
      String(r.nodes),
      String(r.canvasCommits),
      String(r.repoCommits),
      String(r.canvases),
      `${f(r.edit.median, 1)} (${f(r.edit.p25, 1)}-${f(r.edit.p75, 1)})`,
      `${f(r.read.median, 1)} (${f(r.read.p25, 1)}-${f(r.read.p75, 1)})`,
      `${f(r.history.median, 1)} (${f(r.history.p25, 1)}-${f(r.history.p75, 1)})`,
    ]),
  );
}

async function main({ quick, strict, only }: BenchRun): Promise<number> {
  const ctx: BenchContext = { quick, root: ROOT, scratch: makeScratch(), log: (s) => process.stderr.write(`${s}\n`) };
  const started = Date.now();
  const results: BenchResult[] = [];
  const failures: string[] = [];
  /** Seconds each benchmark took, generation included, in the order run. */
  const seconds: Record<string, number> = {};
  let growthRows: GrowthRow[] = [];
  const info = machine();
  ctx.log(firstLine(quick, info));
  try {
    seconds.generate = await generateOnBothCores(runWorkspaces(quick, only), ctx.log);
    ctx.log(`workspaces ready in ${seconds.generate.toFixed(1)} s`);
    // The generator must make what the store makes: verify a generated workspace in full.
    if (!only || only.has('verify')) {
      const t0 = Date.now();
      const sample = await generateWorkspace(editWorkspace(true), ROOT, ctx.log);
      const report = await verifyWorkspace(sample.ws);
      if (!report.ok) failures.push(`the generated sample workspace fails verify: ${JSON.stringify(report.violations.slice(0, 5))}`);
      else ctx.log(`generated sample verified: ${report.commits} commits over ${report.canvases} canvases`);
      seconds.verify = (Date.now() - t0) / 1000;
    }
    for (const b of BENCHMARKS) {
      if (only && !only.has(b.key)) continue;
      ctx.log(`running ${b.key}`);
      const t0 = Date.now();
      try {
        const got = await b.run(ctx);
        for (const r of Array.isArray(got) ? got : [got]) {
          results.push(r);
          ctx.log(`  ${row(r).filter(Boolean).join(' | ')}`);
          if (b.key === 'writers' && r.pass === false) failures.push(`concurrent writers lost edits: ${JSON.stringify(r.detail?.lost)}`);
          if (r.name === 'serve: browser and four CLI writers' && r.pass === false) failures.push(`the serve soak failed: ${r.figure} ${JSON.stringify(r.detail)}`);
        }
      } catch (e) {
        failures.push(`${b.key} crashed: ${(e as Error).stack ?? e}`);
      }
      seconds[b.key] = (Date.now() - t0) / 1000;
      ctx.log(`  ${b.key} took ${seconds[b.key]!.toFixed(1)} s`);
    }
    if (!only || only.has('growth')) {
      ctx.log('running growth');
      const t0 = Date.now();
      try {
        growthRows = await growth(ctx);
      } catch (e) {
        failures.push(`growth crashed: ${(e as Error).stack ?? e}`);
      }
      seconds.growth = (Date.now() - t0) / 1000;
    }
  } finally {
    rmSync(ctx.scratch, { recursive: true, force: true });
  }
  const took = (Date.now() - started) / 1000;
  const out = [table(['benchmark', 'wall ratio', 'spread p25-p75 (min-max)', 'CPU ratio', 'CPU spread', 'wall ms', 'baseline wall ms', 'CPU ms / baseline', 'target', 'result', 'note'], results.map(row))];
  if (growthRows.length > 0) out.push('', 'growth (median ms, p25-p75):', growthTable(growthRows));
  process.stdout.write(`${out.join('\n')}\n`);
  writeFileSync(
    join(ROOT, 'bench', 'results.json'),
    `${JSON.stringify({ mode: quick ? 'quick' : 'full', date: new Date().toISOString(), seconds: took, machine: info, took: seconds, results, growth: growthRows, failures }, null, 2)}\n`,
  );
  if (quick) process.stderr.write(`quick run: ${took.toFixed(1)} s (budget ${QUICK_BUDGET_S} s: ${took <= QUICK_BUDGET_S ? 'kept' : 'over'})\n`);
  const missed = results.filter((r) => r.pass === false).map((r) => r.name);
  if (missed.length > 0) process.stderr.write(`targets missed: ${missed.join(', ')}\n`);
  if (failures.length > 0) {
    process.stderr.write(`${failures.join('\n')}\n`);
    return 1;
  }
  return strict && missed.length > 0 ? 3 : 0;
}

if (asked.kind === 'exit') {
  process.stdout.write(asked.stdout);
  process.stderr.write(asked.stderr);
  process.exitCode = asked.code;
} else {
  process.exitCode = await main(asked);
}
