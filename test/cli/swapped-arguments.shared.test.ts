import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, tempWorkspace } from '../helpers/workspace.js';

/**
 * `canvas replace <node> <ledger>`: the ledger is unknown and the other argument is a canvas, so
 * the refusal says the arguments look swapped instead of suggesting a canvas named after the node.
 */
describe('arguments given the wrong way round', () => {
  let ws: Workspace;
  let node = '';
  let base = '';

  beforeAll(async () => {
    ws = tempWorkspace('canvas-swapped-');
    expect((await runMain(ws, ['create', 'my-task', '--why', 'a canvas'])).code).toBe(0);
    const read = await runMain(ws, ['read', 'my-task']);
    const out = await runMain(ws, ['insert', 'my-task', '--into', 'root', '--text', 'Plain.', '--base', baseOf(read.stdout), '--why', 'a node', '--json']);
    ({ node, revision: base } = JSON.parse(out.stdout) as { node: string; revision: string });
  });

  for (const [name, args] of [
    ['replace', () => ['replace', node, 'my-task', '--text', 'Changed.', '--base', base, '--why', 'x']],
    ['remove', () => ['remove', node, 'my-task', '--base', base, '--why', 'x']],
    ['move', () => ['move', node, 'my-task', '--into', 'root', '--base', base, '--why', 'x']],
    ['approve', () => ['approve', '5f66076e8e', 'my-task', '--why', 'x']],
    ['reject', () => ['reject', '5f66076e8e', 'my-task', '--why', 'x']],
  ] as const) {
    it(`${name} <other> <ledger>: CANVAS_NOT_FOUND saying the arguments look swapped, with the command the right way round`, async () => {
      const before = repoState(ws);
      const r = await runMain(ws, [...args(), '--json']);
      expect(r.code, r.stdout).toBe(2);
      const out = JSON.parse(r.stdout) as { code: string; data?: { swapped?: boolean; canvas?: string }; hint: string };
      expect(out.code).toBe('CANVAS_NOT_FOUND');
      expect(out.data?.swapped).toBe(true);
      expect(out.data?.canvas).toBe('my-task');
      expect(out.hint).toMatch(new RegExp(`^canvas ${name} my-task `));
      expect(out.hint).not.toContain('canvas create');
      expect(repoState(ws)).toEqual(before);
    });
  }

  it('an unknown ledger whose other argument is no canvas keeps the hint to create it', async () => {
    const r = await runMain(ws, ['replace', 'other-task', node, '--text', 'x', '--base', base, '--why', 'x', '--json']);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { code: string; data?: { swapped?: boolean }; hint: string };
    expect(out.code).toBe('CANVAS_NOT_FOUND');
    expect(out.data?.swapped).toBeUndefined();
    expect(out.hint).toContain('canvas create other-task');
  });
});
