import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/workspace.js';
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

  it('a repository this user may not look into is PERMISSION_DENIED for reads, writes and the remote commands, never "no canvas yet"', async () => {
    ws = tempWorkspace('canvas-unreadable-');
    const made = await runMain(ws, ['create', 'hidden', '--why', 'a canvas nobody else may read']);
    expect(made.code, made.stderr).toBe(0);
    chmodSync(ws.root, 0o755);
    chmodSync(join(ws.root, 'state'), 0o755);
    chmodSync(ws.repo, 0o000);
    const writes = [
      ['insert', 'hidden', '--into', 'root', '--text', 'x', '--base', 'a'.repeat(40), '--why', 'try'],
      ['create', 'other', '--why', 'try'],
      ['remote', 'show'],
      ['remote', 'unset'],
      ['sync'],
    ];
    for (const args of [['read', 'hidden'], ['list'], ['verify'], ...writes]) {
      const r = await runReadOnly(ws, [...args, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; data: { path: string } } };
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(error.data.path.startsWith(ws.repo)).toBe(true);
    }
  });
});
