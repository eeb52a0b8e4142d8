// `npm run bench [-- --quick] [-- --only a,b] [-- --strict]` (`-- --help` for the usage): run
// every benchmark with its baseline interleaved, print a table, write bench/results.json. A
// missed target is reported, not fatal (unless --strict); a benchmark that crashes or an edit
// that is lost fails the run; an unknown option or name exits 2 before anything runs.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_NAMES, BENCHMARKS, runWorkspaces } from './benchmarks/index.js';
import type { GrowthRow } from './benchmarks/growth.js';
import { type BenchRun, parseBenchArgs } from './lib/bench-args.js';
import type { BenchResult } from './lib/context.js';
import type { WorkspaceSpec } from './lib/generate-workspace.js';
import { cpuSeconds, type RunJob, runLanes, specKey } from './lib/lanes.js';
import type { Stats } from './lib/measure.js';
import { editWorkspace, growthWorkspaces } from './lib/workspaces.js';

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
 * The jobs of a run, in the order the lanes take them: every workspace the run reads, the larger
 * first (all generated before anything is measured in a full run; in a quick run a benchmark
 * starts as soon as its own are there), the generated sample's verify, the benchmarks, the growth
 * table. In a full run every benchmark runs alone; in a quick run two at a time, but for those
 * that need the machine to themselves (`alone` in bench/benchmarks/index.ts).
 */
function runJobs(quick: boolean, only: ReadonlySet<string> | null): RunJob[] {
  const asked = (key: string) => only === null || only.has(key);
  const keys = (specs: readonly WorkspaceSpec[]) => specs.map(specKey);
  const generate = [...runWorkspaces(quick, only)]
    .sort((a, b) => generationCost(b) - generationCost(a))
    .map((spec): RunJob => ({ name: 'generate', job: { kind: 'generate', spec }, needs: [], makes: specKey(spec), alone: false }));
  const verify: RunJob[] = asked('verify') ? [{ name: 'verify', job: { kind: 'verify' }, needs: keys([editWorkspace(true)]), alone: !quick }] : [];
  const benches = BENCHMARKS.filter((b) => asked(b.key)).map((b): RunJob => ({ name: b.key, job: { kind: 'bench', key: b.key }, needs: keys(b.workspaces?.(quick) ?? []), alone: !quick || b.alone === true }));
  const growthJob: RunJob[] = asked('growth') ? [{ name: 'growth', job: { kind: 'growth' }, needs: keys(growthWorkspaces(quick)), alone: !quick }] : [];
  return [...generate, ...verify, ...benches, ...growthJob];
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
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const started = Date.now();
  const results: BenchResult[] = [];
  /** Each result's benchmark's place in the runner's order. */
  const place = new Map<BenchResult, number>();
  const failures: string[] = [];
  /** Seconds each benchmark took (and its CPU seconds, the lane's and its children's), in the order they ended. */
  const seconds: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  let growthRows: GrowthRow[] = [];
  const info = machine();
  log(firstLine(quick, info));
  const generated = { seconds: 0, cpu: 0, last: 0 };
  await runLanes(ROOT, quick, 2, runJobs(quick, only), (job, answer, lane) => {
    const where = quick ? ` (lane ${lane + 1})` : '';
    if (job.job.kind === 'generate') {
      for (const line of answer.log) log(line);
      generated.seconds += answer.seconds;
      generated.cpu += answer.cpuSeconds;
      generated.last = (Date.now() - started) / 1000;
      if (answer.error) failures.push(`generating a workspace crashed: ${answer.error}`);
      return;
    }
    log(`running ${job.name}${where}`);
    for (const line of answer.log) log(`  ${line}`);
    if (answer.error) failures.push(`${job.name} crashed: ${answer.error}`);
    if (answer.verify) {
      if (!answer.verify.ok) failures.push(`the generated sample workspace fails verify: ${JSON.stringify(answer.verify.violations)}`);
      else log(`generated sample verified: ${answer.verify.commits} commits over ${answer.verify.canvases} canvases`);
    }
    if (answer.growth) growthRows = answer.growth;
    for (const r of answer.results ?? []) {
      results.push(r);
      place.set(
        r,
        BENCHMARKS.findIndex((b) => b.key === job.name),
      );
      log(`  ${row(r).filter(Boolean).join(' | ')}`);
      if (job.name === 'writers' && r.pass === false) failures.push(`concurrent writers lost edits: ${JSON.stringify(r.detail?.lost)}`);
      if (r.name === 'serve: browser and four CLI writers' && r.pass === false) failures.push(`the serve soak failed: ${r.figure} ${JSON.stringify(r.detail)}`);
    }
    seconds[job.name] = answer.seconds;
    cpu[job.name] = answer.cpuSeconds;
    log(`  ${job.name} took ${answer.seconds.toFixed(1)} s (CPU ${answer.cpuSeconds.toFixed(1)} s)`);
  });
  seconds.generate = generated.seconds;
  cpu.generate = generated.cpu;
  log(`workspaces: ${generated.seconds.toFixed(1)} s in the lanes (CPU ${generated.cpu.toFixed(1)} s), the last ready ${generated.last.toFixed(1)} s into the run`);
  // The table in the runner's order, whichever lane ended first.
  results.sort((a, b) => (place.get(a) ?? 0) - (place.get(b) ?? 0));
  const took = (Date.now() - started) / 1000;
  const out = [table(['benchmark', 'wall ratio', 'spread p25-p75 (min-max)', 'CPU ratio', 'CPU spread', 'wall ms', 'baseline wall ms', 'CPU ms / baseline', 'target', 'result', 'note'], results.map(row))];
  if (growthRows.length > 0) out.push('', 'growth (median ms, p25-p75):', growthTable(growthRows));
  process.stdout.write(`${out.join('\n')}\n`);
  writeFileSync(
    join(ROOT, 'bench', 'results.json'),
    `${JSON.stringify({ mode: quick ? 'quick' : 'full', date: new Date().toISOString(), seconds: took, machine: info, took: seconds, tookCpu: cpu, cpuSeconds: cpuSeconds(), results, growth: growthRows, failures }, null, 2)}\n`,
  );
  if (quick) process.stderr.write(`quick run: ${took.toFixed(1)} s, CPU ${cpuSeconds().toFixed(1)} s (budget ${QUICK_BUDGET_S} s: ${took <= QUICK_BUDGET_S ? 'kept' : 'over'})\n`);
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
