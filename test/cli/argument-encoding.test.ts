import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, baseOf, type CliResult, repoState, ROOT, resultOf, tempWorkspace } from '../helpers/workspace.js';

// Bytes that are not UTF-8 never become text (docs/schema.md, "Characters"): Node turns such an
// argument into U+FFFD before the CLI sees it, so an argument holding U+FFFD is BAD_ENCODING, as a
// payload file's bytes are, before anything is read or written (docs/cli.md, "Limits").

/** Run the built CLI through sh, so that `printf` puts raw bytes in its arguments. */
function runRaw(workspace: string, script: string): Promise<CliResult> {
  const child = spawn('/bin/sh', ['-c', `exec "${process.execPath}" "${join(ROOT, 'bin', 'canvas.js')}" ${script}`], {
    env: { ...process.env, CANVAS_WORKSPACE: workspace, CANVAS_AUTHOR: AUTHOR, NO_COLOR: '1' },
  });
  return resultOf(child);
}

describe('an argument that is not UTF-8', () => {
  it('is BAD_ENCODING (exit 2) for --text and --why, nothing written; a literal U+FFFD too', async () => {
    const ws = tempWorkspace();
    expect((await runMain(ws, ['create', 'enc', '--why', 'encodings'])).code).toBe(0);
    const base = baseOf((await runMain(ws, ['read', 'enc'])).stdout);
    const before = repoState(ws);
    const insert = (text: string, why: string) => `insert enc --into root --text "$(printf '${text}')" --base ${base} --why "$(printf '${why}')" --json`;
    for (const script of [insert('A\\303\\050B', 'fine'), insert('fine', 'ok \\377'), insert('A\\357\\277\\275B', 'a literal replacement character')]) {
      const r = await runRaw(ws.root, script);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'BAD_ENCODING' });
    }
    expect(repoState(ws)).toEqual(before);
    const plain = await runRaw(ws.root, insert('A\\303\\050B', 'fine').replace(' --json', ''));
    expect(plain.stderr).toMatch(/^canvas: BAD_ENCODING: argument 6 /);
  });
});

describe('an author over its limit', () => {
  it('is TOO_LONG (exit 2) before anything is read, from --author and from CANVAS_AUTHOR', async () => {
    const ws = tempWorkspace();
    const long = `leo${'x'.repeat(300)}`;
    for (const [args, env] of [
      [['create', 'lim', '--why', 'x', '--author', long, '--json'], {}],
      [['create', 'lim', '--why', 'x', '--json'], { CANVAS_AUTHOR: long }],
    ] as const) {
      const r = await runMain(ws, [...args], env);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'TOO_LONG', data: { argument: 'author', limit: 256 } });
    }
    expect(repoState(ws).refs).toBe('(no repository)');
  });
});
