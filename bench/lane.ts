// One lane of a benchmark run: a process the runner (bench/run.ts) forks, which takes one job at a
// time over the IPC channel (generate a workspace, verify the generated sample, run a benchmark,
// the growth table) and answers with what it found, the lines it would have printed, and the
// seconds and CPU it took. The benchmarks time whole processes with synchronous spawns, so two
// benchmarks can only run at once in two processes: a quick run keeps two lanes busy on the two
// cores (bench/lib/lanes.ts; docs/performance.md, "The quick run"). It imports what a job needs
// when the job comes: through tsx, every benchmark's modules at once are seconds of CPU.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCHMARKS } from './benchmarks/index.js';
import { type BenchContext, makeScratch } from './lib/context.js';
import { generateWorkspace } from './lib/generate-workspace.js';
import { cpuSeconds, type LaneAnswer, type LaneOrder } from './lib/lanes.js';
import { editWorkspace } from './lib/workspaces.js';

const ROOT = join(import.meta.dirname, '..');
const scratch = makeScratch();
let said: string[] = [];
/** Whether the job's lines go out as they come (a workspace's generation, minutes at full size) or with its answer. */
let streaming = false;
const quick = process.argv[2] === '--quick';
const ctx: BenchContext = { quick, root: ROOT, scratch, log: (line) => (streaming ? process.stderr.write(`${line}\n`) : said.push(line)) };

async function work(order: LaneOrder): Promise<Omit<LaneAnswer, 'id' | 'log' | 'seconds' | 'cpuSeconds'>> {
  const job = order.job;
  if (job.kind === 'generate') {
    await generateWorkspace(job.spec, ROOT, ctx.log);
    return {};
  }
  if (job.kind === 'verify') {
    // The generator must make what the store makes: verify a generated workspace in full.
    const { verifyWorkspace } = await import('../src/store/verify/verify-workspace.js');
    const sample = await generateWorkspace(editWorkspace(true), ROOT, ctx.log);
    const report = await verifyWorkspace(sample.ws);
    return { verify: { ok: report.ok, commits: report.commits, canvases: report.canvases, violations: report.violations.slice(0, 5) } };
  }
  if (job.kind === 'growth') return { growth: await (await import('./benchmarks/growth.js')).growth(ctx) };
  const bench = BENCHMARKS.find((b) => b.key === job.key);
  if (!bench) throw new Error(`no benchmark named ${job.key}`);
  const got = await bench.run(ctx);
  return { results: Array.isArray(got) ? got : [got] };
}

process.on('message', (order: LaneOrder) => {
  said = [];
  streaming = order.job.kind === 'generate';
  const t0 = Date.now();
  const cpu0 = cpuSeconds();
  const answer = (rest: Partial<LaneAnswer>) => process.send?.({ id: order.id, log: said, seconds: (Date.now() - t0) / 1000, cpuSeconds: cpuSeconds() - cpu0, ...rest } satisfies LaneAnswer);
  work(order).then(answer, (e: unknown) => answer({ error: (e as Error).stack ?? String(e) }));
});

process.on('disconnect', () => {
  rmSync(scratch, { recursive: true, force: true });
  // A benchmark's server or timer left behind must not keep the lane alive after the run.
  process.exit();
});
