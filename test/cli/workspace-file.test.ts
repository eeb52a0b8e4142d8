import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/workspace.js';

/** A workspace that names a file is a usage error with a code, never INTERNAL with a stack trace. */
describe('a workspace that is a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-ws-file-'));
  const file = join(dir, 'not-a-dir');
  writeFileSync(file, 'a file\n');

  for (const args of [
    ['create', 'x', '--why', 'a canvas', '--workspace', file],
    ['read', 'x', '--workspace', file],
    ['render', 'x', '--workspace', file],
    ['verify', '--workspace', file],
  ]) {
    it(`canvas ${args[0]} --workspace FILE: NO_WORKSPACE, exit 2, no stack, nothing written`, async () => {
      const r = await runCli(null, args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^canvas: NO_WORKSPACE: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(file, 'utf8')).toBe('a file\n');
      expect(readdirSync(dir)).toEqual(['not-a-dir']);
    });
  }

  it('$CANVAS_WORKSPACE naming a file, with --json: the error object with the code', async () => {
    const r = await runCli(null, ['create', 'x', '--why', 'a canvas', '--json'], { CANVAS_WORKSPACE: file });
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { outcome?: string; code?: string; error?: { code: string } };
    expect(out.error?.code ?? out.code).toBe('NO_WORKSPACE');
    expect(readdirSync(dir)).toEqual(['not-a-dir']);
  });
});
