// The site build: `canvas build --out DIR` of 1,000 canvases of 30-80 nodes, cold (absolute, and
// per canvas, with the peak memory of the process), then again after one edit (against the cold
// build).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { replaceNode } from '../../src/store/node-writes.js';
import { readCanvas } from '../../src/store/read-canvas.js';
import { type BenchContext, type BenchResult, cliCommand, cliEnv, copyWorkspace } from '../lib/context.js';
import { editText } from '../lib/edit-loop.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { stats, timeProcess } from '../lib/measure.js';
import { historyWorkspace } from '../lib/workspaces.js';

const TIME = '/usr/bin/time';

/** One `canvas build`, timed, with the process's peak memory (KiB) when GNU time is there. */
function build(ctx: BenchContext, env: NodeJS.ProcessEnv, out: string): { ms: number; maxKiB: number | null; stdout: string } {
  const [node, pre] = cliCommand(ctx);
  const argv = [...pre, 'build', '--out', out];
  if (existsSync(TIME)) {
    const r = timeProcess(TIME, ['-f', '%M', node, ...argv], { env });
    const kib = Number(r.stderr.trim().split('\n').pop());
    return { ms: r.ms, maxKiB: Number.isFinite(kib) ? kib : null, stdout: r.stdout };
  }
  const r = timeProcess(node, argv, { env });
  return { ms: r.ms, maxKiB: null, stdout: r.stdout };
}

/** Cold build and one-change build of the history workspace's canvases. */
export async function siteBuild(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = historyWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, 'site-ws');
  const env = cliEnv(ws, GEN_AUTHOR);
  const canvases = gen.ledgers.length;
  const out = join(ctx.scratch, 'site');
  const cold: number[] = [];
  let peak = 0;
  let measuredMemory = true;
  for (let i = 0; i < (ctx.quick ? 1 : 3); i += 1) {
    rmSync(out, { recursive: true, force: true });
    const r = build(ctx, env, out);
    if (!r.stdout.startsWith(`built ${canvases}, unchanged 0, failed 0`)) throw new Error(`canvas build printed:\n${r.stdout}`);
    cold.push(r.ms);
    if (r.maxKiB === null) measuredMemory = false;
    else peak = Math.max(peak, r.maxKiB);
  }
  const coldStats = stats(cold);
  const peakMiB = peak / 1024;
  // One change: edit a canvas, build again into the same directory.
  const ledger = gen.ledgers[0]!;
  const read = await readCanvas(ws, { ledger });
  const blocks = read.canvas.children.filter((n) => n.type !== 'section').map((n) => n.id);
  let revision = read.revision;
  const again: number[] = [];
  for (let i = 0; i < (ctx.quick ? 2 : 5); i += 1) {
    const o = await replaceNode(ws, { ledger, node: blocks[i % blocks.length]!, base: revision, payload: { text: editText(i) }, why: 'one change for the site', author: GEN_AUTHOR });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    revision = o.revision;
    const r = build(ctx, env, out);
    if (!r.stdout.startsWith(`built 1, unchanged ${canvases - 1}, failed 0`)) throw new Error(`canvas build after one edit printed:\n${r.stdout}`);
    again.push(r.ms);
  }
  const againStats = stats(again);
  return [
    {
      name: 'site build, cold',
      measured: `canvas build of ${canvases} canvases of ${spec.minNodes}-${spec.maxNodes} nodes (${spec.commits} commits)`,
      baseline: 'none (absolute)',
      target: '<= 10 s, peak memory <= 1 GiB',
      a: coldStats,
      pass: coldStats.median <= 10_000 && (!measuredMemory || peakMiB <= 1024),
      figure: `${(coldStats.median / 1000).toFixed(2)} s (${(coldStats.median / canvases).toFixed(1)} ms per canvas), peak ${measuredMemory ? `${peakMiB.toFixed(0)} MiB` : 'not measured (no /usr/bin/time)'}`,
      detail: { canvases, perCanvasMs: coldStats.median / canvases, peakMiB: measuredMemory ? peakMiB : null },
    },
    {
      name: 'site build, one change',
      measured: `canvas build again after one edit (${canvases} canvases, 1 rebuilt)`,
      baseline: 'the cold build',
      target: '<= 1 s',
      a: againStats,
      b: coldStats,
      ratio: stats(again.map((ms) => ms / coldStats.median)),
      pass: againStats.median <= 1000,
      figure: `${(againStats.median / 1000).toFixed(2)} s`,
    },
  ];
}
