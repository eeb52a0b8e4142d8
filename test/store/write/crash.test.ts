import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { AUTHOR, ROOT, tempWorkspace } from '../../helpers/workspace.js';

function headFile(ws: Workspace, path: string): string {
  return execFileSync('git', ['show', `main:${path}`], { cwd: ws.repo, encoding: 'utf8' });
}

async function setup(): Promise<{ ws: Workspace; node: string }> {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'c', why: 'crash trials', author: AUTHOR });
  const r = await readCanvas(ws, { ledger: 'c' });
  const o = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text: 'first' }, base: r.revision, why: 'a node to rewrite', author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return { ws, node: o.node! };
}

/** After a crash: verify green (repairing), the working file equals main, the next write succeeds. */
async function recovers(ws: Workspace, node: string, label: string): Promise<void> {
  const report = await verifyWorkspace(ws);
  expect(report.violations, label).toEqual([]);
  expect(readFileSync(join(ws.repo, 'c.xml'), 'utf8'), label).toBe(headFile(ws, 'c.xml'));
  const r = await readCanvas(ws, { ledger: 'c' });
  const o = await replaceNode(ws, { ledger: 'c', node, payload: { text: `after ${label}` }, base: r.revision, why: 'the next write', author: AUTHOR });
  expect(o.outcome, label).toBe('applied');
}

describe('a writer killed at any instant', () => {
  it('leaves main at the old or the new commit, verify green, the working file equal to main, and no lock forever (22 trials)', async () => {
    const { ws, node } = await setup();
    process.env.CANVAS_LOCK_TIMEOUT_MS = '10000';
    const writer = (text: string, base: string, why: string) =>
      spawn(process.execPath, [join(ROOT, 'bin/canvas.js'), 'replace', 'c', node, '--text', text, '--base', base, '--why', why], {
        env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: AUTHOR },
        stdio: 'ignore',
      });
    // How long one whole write takes on this machine, so the kills spread across a process's life.
    const started = Date.now();
    for (let i = 0; i < 3; i += 1) {
      const child = writer(`warm ${i}`, (await readCanvas(ws, { ledger: 'c' })).revision, 'timing');
      await new Promise((resolve) => child.on('close', resolve));
    }
    const life = (Date.now() - started) / 3;
    // One kill at each twentieth of that life (in the order 1, 8, 15, 2, …: start-up, the critical
    // section and after), then two inside the critical section for certain: the moment the writer
    // takes the repository lock, and the moment its ref update starts (git's main.lock appears;
    // the writer's git child, not killed, may go on and move main).
    const kills: Array<{ label: string; at: number | [dir: string, name: string] }> = [];
    for (let trial = 0; trial < 20; trial += 1) kills.push({ label: `trial ${trial}`, at: Math.round((life * (((trial * 7) % 20) + 1)) / 20) });
    kills.push({ label: 'at the lock', at: ['.git', 'canvas.lock'] }, { label: 'at the ref update', at: [join('.git', 'refs', 'heads'), 'main.lock'] });
    const midWrite: string[] = [];
    for (const { label, at } of kills) {
      const before = execFileSync('git', ['rev-parse', 'main'], { cwd: ws.repo, encoding: 'utf8' }).trim();
      const child = writer(label, (await readCanvas(ws, { ledger: 'c' })).revision, label);
      const closed = new Promise((resolve) => child.on('close', resolve));
      if (typeof at === 'number') {
        await sleep(at);
        child.kill('SIGKILL');
      } else {
        const watcher = watch(join(ws.repo, at[0]), (_event, name) => {
          if (name === at[1]) child.kill('SIGKILL');
        });
        await closed;
        watcher.close();
      }
      await closed;
      const after = execFileSync('git', ['rev-parse', 'main'], { cwd: ws.repo, encoding: 'utf8' }).trim();
      if (existsSync(join(ws.repo, '.git', 'canvas.lock'))) midWrite.push(label);
      // main is at the old commit or at a new commit whose parent is the old one.
      if (after !== before) {
        expect(execFileSync('git', ['rev-parse', `${after}^`], { cwd: ws.repo, encoding: 'utf8' }).trim(), label).toBe(before);
      }
      await recovers(ws, node, label);
    }
    // Kills landed inside the critical section (the lock was left behind and broken).
    expect(midWrite, 'a kill at the lock leaves it behind').toContain('at the lock');
  });

  it('repairs a working file left one revision behind (killed after the commit, before the file)', async () => {
    const { ws, node } = await setup();
    const old = readFileSync(join(ws.repo, 'c.xml'), 'utf8');
    const r = await readCanvas(ws, { ledger: 'c' });
    await replaceNode(ws, { ledger: 'c', node, payload: { text: 'second' }, base: r.revision, why: 'move on', author: AUTHOR });
    writeFileSync(join(ws.repo, 'c.xml'), old);
    await recovers(ws, node, 'lagging file');
  });

  it('breaks a lock whose process is gone, and clears a stale main.lock while holding it', async () => {
    const { ws, node } = await setup();
    writeFileSync(join(ws.repo, '.git', 'canvas.lock'), JSON.stringify({ pid: 999999, start: '1', nonce: 'dead' }));
    writeFileSync(join(ws.repo, '.git', 'refs', 'heads', 'main.lock'), 'stale');
    await recovers(ws, node, 'stale locks');
    expect(existsSync(join(ws.repo, '.git', 'refs', 'heads', 'main.lock'))).toBe(false);
  });

  it('repairs a canvas ref left behind main by a ref transaction cut short', async () => {
    const { ws, node } = await setup();
    const r = await readCanvas(ws, { ledger: 'c' });
    const o = await replaceNode(ws, { ledger: 'c', node, payload: { text: 'second' }, base: r.revision, why: 'move on', author: AUTHOR });
    if (o.outcome !== 'applied') throw new Error('setup');
    execFileSync('git', ['update-ref', 'refs/canvas/c', r.revision], { cwd: ws.repo });
    writeFileSync(join(ws.repo, '.git', 'refs', 'canvas', 'c.lock'), o.revision);
    // The read repairs the ref from main (clearing the stale ref lock under the repository lock),
    // so it shows the applied edit, never the revision before it; a write against it applies.
    const again = await readCanvas(ws, { ledger: 'c' });
    expect(again.revision).toBe(o.revision);
    expect(execFileSync('git', ['rev-parse', 'refs/canvas/c'], { cwd: ws.repo, encoding: 'utf8' }).trim()).toBe(o.revision);
    const next = await replaceNode(ws, { ledger: 'c', node, payload: { text: 'third' }, base: again.revision, why: 'after the cut', author: AUTHOR });
    expect(next.outcome).toBe('applied');
    await recovers(ws, node, 'ref behind');
  });
});
