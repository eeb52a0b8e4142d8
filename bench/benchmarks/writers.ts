// Concurrent writers: 8 processes x 100 edits, half on one canvas, against one writer's rate.
// Every applied edit must be in its canvas's history exactly once, and verify must pass.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { canvasLog } from '../../src/store/read/canvas-log.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import type { BenchContext, BenchResult } from '../lib/context.js';
import { childrenCpuMs } from '../lib/measure.js';

const AUTHOR = 'bench | by-hand';

interface WriterRun {
  ledger: string;
  revisions: string[];
  conflicts: number;
  start: number;
  end: number;
}

/** Start writers, release them together, and collect what each applied. */
async function runWriters(ctx: BenchContext, ws: Workspace, jobs: Array<{ ledger: string; author: string }>, count: number): Promise<WriterRun[]> {
  const children = jobs.map(({ ledger, author }) => {
    const child = spawn(process.execPath, [join(ctx.root, 'bench', 'writer.mjs'), ws.root, ledger, author, String(count)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const ready = new Promise<void>((resolve) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b;
        if (out.startsWith('ready\n')) resolve();
      });
    });
    child.stderr.on('data', (b: Buffer) => (err += b));
    const done = new Promise<WriterRun>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        const lines = out
          .split('\n')
          .slice(1)
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const summary = lines.find((l) => l.done);
        if (code !== 0 || !summary) {
          reject(new Error(`writer on ${ledger} exited ${code}: ${err}${out.slice(-500)}`));
          return;
        }
        resolve({
          ledger,
          revisions: lines.filter((l) => l.outcome === 'applied').map((l) => l.revision as string),
          conflicts: summary.conflicts as number,
          start: summary.start as number,
          end: summary.end as number,
        });
      });
    });
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.end('go\n');
  return Promise.all(children.map((c) => c.done));
}

/** 8 writer processes x 100 edits, half on one canvas: nothing lost, the aggregate rate reported. */
export async function concurrentWriters(ctx: BenchContext): Promise<BenchResult> {
  const count = ctx.quick ? 5 : 100;
  const dir = join(ctx.scratch, 'writers');
  mkdirSync(dir, { recursive: true });
  const ws = resolveWorkspace({ workspace: dir });
  const ledgers = ['shared', 'own-4', 'own-5', 'own-6', 'own-7', 'solo'];
  for (const ledger of ledgers) {
    const c = await createCanvas(ws, { ledger, why: 'a canvas for the writers', author: AUTHOR });
    if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
    let base = c.revision;
    for (let k = 0; k < 3; k += 1) {
      const o = await insertNode(ws, { ledger, base, into: 'root', payload: { text: `starting paragraph ${k}` }, why: 'something to edit', author: AUTHOR });
      if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
      base = o.revision;
    }
  }
  // One writer alone. CPU: what the writer processes (and their git children) cost, per edit.
  const cpu0 = childrenCpuMs();
  const [solo] = await runWriters(ctx, ws, [{ ledger: 'solo', author: 'bench | step:solo' }], count);
  const soloRate = count / ((solo!.end - solo!.start) / 1000);
  const cpu1 = childrenCpuMs();
  // Eight at once: four on one canvas, four on their own.
  const jobs = Array.from({ length: 8 }, (_, w) => ({ ledger: w < 4 ? 'shared' : `own-${w}`, author: `bench | step:w${w}` }));
  const runs = await runWriters(ctx, ws, jobs, count);
  const cpu2 = childrenCpuMs();
  const wall = (Math.max(...runs.map((r) => r.end)) - Math.min(...runs.map((r) => r.start))) / 1000;
  const total = runs.reduce((a, r) => a + r.revisions.length, 0);
  const rate = total / wall;
  // Nothing lost: every applied revision is in its canvas's history once, and nothing else is.
  const lost: string[] = [];
  for (const ledger of ledgers) {
    const log = await canvasLog(ws, { ledger });
    const edits = log
      .filter((e) => e.op === 'insert' || e.op === 'replace')
      .map((e) => e.commit)
      .slice(0, -3);
    const mine = [...runs, solo!].filter((r) => r.ledger === ledger).flatMap((r) => r.revisions);
    const inLog = new Set(edits);
    if (inLog.size !== edits.length) lost.push(`${ledger}: a commit appears twice in the history`);
    for (const rev of mine) if (!inLog.has(rev)) lost.push(`${ledger}: applied ${rev} is not in the history`);
    if (edits.length !== mine.length) lost.push(`${ledger}: ${edits.length} edits in the history, ${mine.length} applied`);
  }
  const report = await verifyWorkspace(ws);
  if (!report.ok) lost.push(...report.violations.map((v) => `verify: ${v.rule} ${v.message}`));
  const conflicts = runs.reduce((a, r) => a + r.conflicts, 0);
  const cpuPerEdit = cpu0 === null || cpu1 === null || cpu2 === null ? null : { alone: (cpu1 - cpu0) / count, eight: (cpu2 - cpu1) / total };
  const cpuNote = cpuPerEdit ? `; CPU ${cpuPerEdit.eight.toFixed(1)} ms per edit (alone ${cpuPerEdit.alone.toFixed(1)})` : '';
  return {
    name: 'concurrent writers',
    measured: `8 processes x ${count} edits, 4 on one canvas`,
    baseline: "one writer's rate",
    target: 'no edit lost; rate reported',
    pass: lost.length === 0,
    figure: `${rate.toFixed(1)} edits/s vs ${soloRate.toFixed(1)} alone (x${(rate / soloRate).toFixed(2)}); ${conflicts} conflicts retried${cpuNote}`,
    detail: { applied: total, wallSeconds: wall, rate, soloRate, conflicts, lost, verifyCommits: report.commits, cpuMsPerEdit: cpuPerEdit },
  };
}
