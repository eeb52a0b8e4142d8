// The shared remote (docs/remote.md, "Scale"): pushes per second one git daemon on 127.0.0.1
// sustains with 1, 4 and 16 concurrent writers (each its own machine: workspace, lock, process
// state), on distinct canvases and on one hot canvas; and the latency a remote adds to a write,
// against a local write in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../src/model/canvas-error.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { setRemote } from '../../src/store/remote/set-remote.js';
import { syncWorkspace } from '../../src/store/remote/sync-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { type BenchContext, type BenchResult, pairs } from '../lib/context.js';
import { startGitDaemon } from '../lib/git-daemon.js';
import { interleave } from '../lib/measure.js';

const AUTHOR = 'bench | by-hand';

function workspace(dir: string): Workspace {
  mkdirSync(dir, { recursive: true });
  return resolveWorkspace({ workspace: dir });
}

/** One insert: whether it was applied, how long it took, and what it said when it was not. */
async function insert(ws: Workspace, ledger: string, i: number): Promise<{ ok: boolean; ms: number; failure?: string }> {
  const base = (await readCanvas(ws, { ledger })).revision;
  const t0 = performance.now();
  try {
    const o = await insertNode(ws, { ledger, into: 'root', payload: { text: `edit ${i}` }, base, why: `edit ${i}`, author: AUTHOR });
    return o.outcome === 'applied' ? { ok: true, ms: performance.now() - t0 } : { ok: false, ms: performance.now() - t0, failure: `outcome ${o.outcome}` };
  } catch (e) {
    const code = e instanceof CanvasError ? e.code : 'THROWN';
    return { ok: false, ms: performance.now() - t0, failure: `${code}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** `writers` machines writing `edits` each at once; `hot`: all on one canvas, else each on its own. */
async function throughput(ctx: BenchContext, url: string, tag: string, writers: number, edits: number, hot: boolean): Promise<Record<string, number>> {
  const machines: Workspace[] = [];
  for (let i = 0; i < writers; i++) {
    const ws = workspace(join(ctx.scratch, `remote-${tag}-${i}`));
    await setRemote(ws, url);
    machines.push(ws);
  }
  const ledgers = machines.map((_, i) => (hot ? `hot-${tag}` : `own-${tag}-${i}`));
  for (const [i, ws] of machines.entries()) if (!hot || i === 0) await createCanvas(ws, { ledger: ledgers[i]!, why: 'a canvas to push to', author: AUTHOR });
  for (const ws of machines) await syncWorkspace(ws);
  let applied = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    machines.map(async (ws, m) => {
      for (let i = 0; i < edits; i++) {
        const r = await insert(ws, ledgers[m]!, i);
        if (r.ok) applied++;
        else {
          failed++;
          ctx.log(`    machine ${m} edit ${i} failed: ${r.failure}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { writers, applied, failed, seconds: Number(seconds.toFixed(2)), pushesPerSecond: Number((applied / seconds).toFixed(2)) };
}

/** Pushes per second at 1, 4 and 16 writers, distinct and hot; the latency a remote adds. */
export async function remoteWrites(ctx: BenchContext): Promise<BenchResult> {
  const base = join(ctx.scratch, 'remotes');
  mkdirSync(base, { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(base, 'shared.git')]);
  const daemon = await startGitDaemon(base, 'shared.git');
  try {
    const url = daemon.url('shared.git');
    // Latency: the same insert on a local workspace and on one with the remote, interleaved.
    const local = workspace(join(ctx.scratch, 'remote-local'));
    const shared = workspace(join(ctx.scratch, 'remote-shared'));
    await setRemote(shared, url);
    for (const ws of [local, shared]) await createCanvas(ws, { ledger: 'latency', why: 'a canvas to time', author: AUTHOR });
    const cmp = await interleave(
      ...pairs(ctx, 12, 2),
      async (i) => (await insert(shared, 'latency', i)).ms,
      async (i) => (await insert(local, 'latency', i)).ms,
    );
    // Every configuration makes about the same number of writes, spread over its writers. A quick
    // run makes one round of two pushes by one writer: the throughput is a full run's figure.
    const total = ctx.quick ? 2 : 32;
    const rows: Record<string, number>[] = [];
    for (const writers of ctx.quick ? [1] : [1, 4, 16]) {
      const edits = Math.max(2, Math.ceil(total / writers));
      for (const hot of ctx.quick ? [false] : [false, true]) {
        const row = await throughput(ctx, url, `${writers}${hot ? 'h' : 'd'}`, writers, edits, hot);
        ctx.log(`  ${writers} writer(s), ${hot ? 'one hot canvas' : 'distinct canvases'}: ${row.pushesPerSecond} pushes/s, ${row.failed} failed of ${writers * edits} in ${row.seconds} s`);
        rows.push({ ...row, hot: hot ? 1 : 0 });
      }
    }
    return {
      name: 'Remote write',
      measured: 'insert with a shared remote (git daemon on 127.0.0.1)',
      baseline: 'the same insert, local',
      target: 'none: figures for docs/remote.md',
      ...cmp,
      pass: null,
      figure: 'ratio',
      detail: { addedMsMedian: Number((cmp.a.median - cmp.b.median).toFixed(1)), throughput: rows },
    };
  } finally {
    await daemon.stop();
  }
}
