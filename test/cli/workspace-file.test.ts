import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A workspace that names a file is a usage error with a code, never INTERNAL with a stack trace. */
describe('a workspace that is a file', () => {
  // Made when the tests start, not when they are collected (`vitest list` runs no hook that would remove it).
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = tempDir('canvas-ws-file-');
    file = join(dir, 'not-a-dir');
    writeFileSync(file, 'a file\n');
  });

  for (const args of [['create', 'x', '--why', 'a canvas'], ['read', 'x'], ['render', 'x'], ['verify']]) {
    it(`canvas ${args[0]} --workspace FILE: NO_WORKSPACE, exit 2, no stack, nothing written`, async () => {
      const r = await runCli(null, [...args, '--workspace', file]);
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

/** A workspace whose repository's place (`state/canvas`, or `state`) is a file: NO_WORKSPACE naming it. */
describe('a workspace whose state/canvas is not a directory', () => {
  for (const [name, parts] of [
    ['state/canvas', ['state', 'canvas']],
    ['state', ['state']],
  ] as const) {
    it(`canvas create with ${name} a file: NO_WORKSPACE naming it, exit 2, no stack, nothing written`, async () => {
      const dir = tempDir('canvas-ws-repo-file-');
      if (parts.length === 2) mkdirSync(join(dir, 'state'));
      const file = join(dir, ...parts);
      writeFileSync(file, 'a file\n');
      for (const json of [false, true]) {
        const r = await runCli(null, ['create', 'x', '--why', 'a canvas', '--workspace', dir, ...(json ? ['--json'] : [])]);
        expect(r.code, r.stderr).toBe(2);
        if (json) {
          const out = JSON.parse(r.stdout) as { code?: string; error?: { code: string } };
          expect(out.error?.code ?? out.code).toBe('NO_WORKSPACE');
        } else {
          expect(r.stderr).toMatch(/^canvas: NO_WORKSPACE: /);
          expect(r.stderr).toContain(file);
          expect(r.stderr).not.toMatch(/\n\s+at /);
        }
      }
      expect(readFileSync(file, 'utf8')).toBe('a file\n');
      expect(readdirSync(dir)).toEqual(['state']);
      if (parts.length === 2) expect(readdirSync(join(dir, 'state'))).toEqual(['canvas']);
    });
  }
});
