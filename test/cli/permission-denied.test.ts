import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, type CliResult, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

// A workspace this user may not write (owned by someone else, or read-only) is refused as
// PERMISSION_DENIED (docs/errors.md), naming the file, never as an internal error. Root may write
// anything, so under root the built CLI runs as the unprivileged user 65534 instead.

const AS_OTHER = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** Run the built CLI as a user who may read the workspace but not write it. */
function runReadOnly(ws: Workspace, args: string[]): Promise<CliResult> {
  return runCli(ws, args, {}, undefined, AS_OTHER);
}

/** Set every directory under `dir` (and `dir`) to `dirMode`, every file to `fileMode`. */
function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) chmodTree(p, dirMode, fileMode);
    else chmodSync(p, fileMode);
  }
}

let ws: Workspace | null = null;
afterEach(() => {
  if (ws) {
    chmodSync(ws.repo, 0o755);
    chmodTree(ws.root, 0o755, 0o644);
  }
  ws = null;
});

describe('a workspace this user may not write', () => {
  it('reads, and refuses a write as PERMISSION_DENIED naming the lock file, with nothing written', async () => {
    ws = tempWorkspace('canvas-read-only-');
    const made = await runMain(ws, ['create', 'ro', '--why', 'a canvas to read']);
    expect(made.code, made.stderr).toBe(0);
    const base = baseOf((await runMain(ws, ['read', 'ro'])).stdout);
    chmodTree(ws.root, 0o555, 0o444);
    const before = repoState(ws);

    const read = await runReadOnly(ws, ['read', 'ro']);
    expect(read.code, read.stderr).toBe(0);
    expect(baseOf(read.stdout)).toBe(base);

    const r = await runReadOnly(ws, ['insert', 'ro', '--into', 'root', '--text', 'x', '--base', base, '--why', 'try', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string; data: { path: string; errno: string } } };
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.data.path.startsWith(join(ws.repo, '.git'))).toBe(true);
    expect(error.message).toContain(error.data.path);
    expect(error.hint).not.toContain('bug');

    const plain = await runReadOnly(ws, ['insert', 'ro', '--into', 'root', '--text', 'x', '--base', base, '--why', 'try']);
    expect(plain.stderr).toMatch(/^canvas: PERMISSION_DENIED: /);
    expect(repoState(ws)).toEqual(before);
  });

  it('canvas verify on a repository this user may only read: verified, reading only; what it would repair is said, a violation still exits 4', async () => {
    ws = tempWorkspace('canvas-verify-read-only-');
    expect((await runMain(ws, ['create', 'ro', '--why', 'a canvas to verify'])).code).toBe(0);
    const first = await runMain(ws, ['insert', 'ro', '--into', 'root', '--text', 'One.', '--base', baseOf((await runMain(ws, ['read', 'ro'])).stdout), '--why', 'one']);
    expect(first.code, first.stderr).toBe(0);
    // The working file one revision behind, as a write killed after its commit leaves it.
    const file = join(ws.repo, 'ro.xml');
    const previous = readFileSync(file, 'utf8').replace(/\n {2}<text[^\n]*\n/, '');
    writeFileSync(file, previous.replace(/>\n<\/canvas>/, '></canvas>'));
    chmodTree(ws.root, 0o555, 0o444);
    const before = repoState(ws);
    const v = await runReadOnly(ws, ['verify', '--json']);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const report = JSON.parse(v.stdout) as { ok: boolean; violations: unknown[]; repaired: string[]; unrepaired: string[]; commits: number };
    expect(report).toMatchObject({ ok: true, violations: [], repaired: [], commits: 2 });
    expect(report.unrepaired.join('\n')).toMatch(/ro\.xml .*one revision behind.*cannot be written/);
    const plain = await runReadOnly(ws, ['verify']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^not repaired: rewrite ro\.xml from main/m);
    expect(repoState(ws)).toEqual(before);
    // Something verify cannot take for a crash's leftover: still a violation, exit 4.
    chmodSync(ws.repo, 0o755);
    writeFileSync(join(ws.repo, 'stray.txt'), 'added by hand\n');
    chmodSync(ws.repo, 0o555);
    const bad = await runReadOnly(ws, ['verify', '--json']);
    expect(bad.code).toBe(4);
    expect(JSON.parse(bad.stdout).violations).toEqual([expect.objectContaining({ rule: 'working-tree', path: 'stray.txt' })]);
  });

  it('a repository this user may not look into is PERMISSION_DENIED for reads, writes and the remote commands, never "no canvas yet"', async () => {
    ws = tempWorkspace('canvas-unreadable-');
    const made = await runMain(ws, ['create', 'hidden', '--why', 'a canvas nobody else may read']);
    expect(made.code, made.stderr).toBe(0);
    chmodSync(ws.root, 0o755);
    chmodSync(join(ws.root, 'state'), 0o755);
    chmodSync(ws.repo, 0o000);
    const writes = [['insert', 'hidden', '--into', 'root', '--text', 'x', '--base', 'a'.repeat(40), '--why', 'try'], ['create', 'other', '--why', 'try'], ['remote', 'show'], ['remote', 'unset'], ['sync']];
    for (const args of [['read', 'hidden'], ['list'], ['verify'], ...writes]) {
      const r = await runReadOnly(ws, [...args, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; data: { path: string } } };
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(error.data.path.startsWith(ws.repo)).toBe(true);
    }
  });
});
