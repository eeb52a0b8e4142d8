// `canvas serve` on the command line (docs/cli.md, docs/serve.md): the URL printed once with the
// secret, the warning for a host that is not 127.0.0.1, a clean stop on SIGTERM, and the refusals
// of a bad port and a taken one.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCanvas } from '../../src/serve/serve-canvas.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, ROOT, tempWorkspace } from '../helpers/workspace.js';

describe('canvas serve', () => {
  it('prints its URL once, warns about a host that is not 127.0.0.1, serves, and stops on SIGTERM', async () => {
    const ws = tempWorkspace();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'serve', '--host', '127.0.0.2', '--port', '0', '--json'], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: AUTHOR, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b) => {
        stdout += b;
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const { url, origin, port } = JSON.parse(line) as { url: string; origin: string; port: number };
    expect(origin).toBe(`http://127.0.0.2:${port}`);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.2:${port}/\\?token=[A-Za-z0-9_-]{43}$`));
    expect(stderr).toContain('warning: listening on 127.0.0.2, not 127.0.0.1');
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const index = await fetch(`${origin}/`, { headers: { cookie } });
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('There is no canvas in this workspace yet.');
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a bad port (USAGE) and a taken one (SERVE_UNAVAILABLE), and shows an example in --help', async () => {
    const ws = tempWorkspace();
    const bad = await runMain(ws, ['serve', '--port', 'http', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('USAGE');
    for (const every of ['soon', '1.5', '-1', '86401']) {
      const r = await runMain(ws, ['serve', '--port', '0', '--sync-every', every, '--json']);
      expect([r.code, JSON.parse(r.stdout).error.code, JSON.parse(r.stdout).error.message], every).toEqual([2, 'USAGE', `--sync-every ${every} is not a number of seconds (0 to 86400)`]);
    }
    const held = await serveCanvas(ws, { port: 0 });
    try {
      const taken = await runMain(ws, ['serve', '--port', String(held.port), '--json']);
      expect(taken.code).toBe(1);
      expect(JSON.parse(taken.stdout).error).toMatchObject({ code: 'SERVE_UNAVAILABLE', data: { port: held.port } });
    } finally {
      await held.close();
    }
    const help = await runMain(ws, ['serve', '--help']);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('canvas serve --author');
    expect(help.stdout).toContain('--sync-every <seconds>');
  });
});
