import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseOf, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

/** The code of a refusal printed with --json (a rejected outcome, or the error shape). */
function codeOf(stdout: string): string | undefined {
  const out = JSON.parse(stdout) as { code?: string; error?: { code: string } };
  return out.code ?? out.error?.code;
}

describe('CANVAS_GIT_IDLE_MS', () => {
  it('a value that is not milliseconds is USAGE (exit 2) before the repository is made', async () => {
    const ws = tempWorkspace();
    const r = await runCli(ws, ['create', 'k', '--why', 'a canvas', '--json'], { CANVAS_GIT_IDLE_MS: 'soon' });
    expect(r.code, r.stderr).toBe(2);
    expect(codeOf(r.stdout)).toBe('USAGE');
    expect(existsSync(ws.repo)).toBe(false);
  });

  it('on a write to a canvas it is USAGE and nothing is written; a good value works', async () => {
    const ws = tempWorkspace();
    expect((await runCli(ws, ['create', 'k', '--why', 'a canvas'])).code).toBe(0);
    const base = baseOf((await runCli(ws, ['read', 'k'])).stdout);
    const before = repoState(ws);
    const args = ['insert', 'k', '--into', 'root', '--text', 'a line', '--base', base, '--why', 'a line', '--json'];
    const bad = await runCli(ws, args, { CANVAS_GIT_IDLE_MS: '-5' });
    expect(bad.code, bad.stderr).toBe(2);
    expect(codeOf(bad.stdout)).toBe('USAGE');
    expect(repoState(ws)).toEqual(before);
    expect((await runCli(ws, args, { CANVAS_GIT_IDLE_MS: '0' })).code).toBe(0);
  });
});
