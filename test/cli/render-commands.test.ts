// canvas render and canvas prompt through the CLI's entry in process (its parsing, its output and
// its exit code mapping); a few run as real processes (`runCli`) to pin the exit code and the
// streams a user sees, and the light-read probe runs one because it measures a process.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { loadedBy, matching } from '../helpers/loaded-modules.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

let ws: Workspace;
let first: string;
let last: string;

beforeAll(async () => {
  ws = tempWorkspace();
  const opened = await runMain(ws, ['open', 'cli-task', '--problem', 'Slow flags', '--expected-value', 'Fast flags', '--why', 'the task was opened']);
  expect(opened.code).toBe(0);
  first = baseOf(opened.stdout);
  const q = await runMain(ws, ['insert', 'cli-task', '--into', 'root', '--question', 'Who owns it?', '--base', first, '--why', 'nobody said']);
  expect(q.code).toBe(0);
  last = baseOf(q.stdout);
});

describe('canvas render', () => {
  it('prints the HTML page by default, rendered from the current revision', async () => {
    const r = await runCli(ws, ['render', 'cli-task']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(r.stdout).toContain(`<code class="revision">${last}</code>`);
    expect(r.stdout).toContain('id="questions"');
  });

  it('renders the comment and the prompt text', async () => {
    const c = await runMain(ws, ['render', 'cli-task', '--format', 'comment']);
    expect(c.code).toBe(0);
    expect(c.stdout).toContain(`Revision: \`${last}\``);
    const t = await runMain(ws, ['render', 'cli-task', '--format', 'text']);
    expect(t.code).toBe(0);
    expect(t.stdout.split('\n')[0]).toBe(`Canvas-Base: ${last}`);
  });

  it('renders the canvas as it stood --at an earlier commit', async () => {
    const r = await runMain(ws, ['render', 'cli-task', '--at', first, '--format', 'text']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Canvas-Base: ${first}`);
    expect(r.stdout).not.toContain('Who owns it?');
  });

  it('writes -o FILE atomically, leaving no temporary file, and says so with --json', async () => {
    const dir = tempDir('canvas-out-');
    const file = join(dir, 'page.html');
    writeFileSync(file, 'old');
    const r = await runMain(ws, ['render', 'cli-task', '-o', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ledger: 'cli-task', revision: last, format: 'html', output: file });
    const printed = await runMain(ws, ['render', 'cli-task']);
    expect(readFileSync(file, 'utf8')).toBe(printed.stdout);
    expect(readdirSync(dir)).toEqual(['page.html']);
  });

  it("writes -o through a symbolic link to the file it names, keeps a file's permissions, and writes a named pipe as a pipe", async () => {
    const dir = tempDir('canvas-out-');
    const printed = (await runMain(ws, ['render', 'cli-task', '--format', 'text'])).stdout;
    writeFileSync(join(dir, 'real.txt'), 'old');
    symlinkSync('real.txt', join(dir, 'link.txt'));
    expect((await runMain(ws, ['render', 'cli-task', '--format', 'text', '-o', join(dir, 'link.txt')])).code).toBe(0);
    expect(lstatSync(join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.txt'), 'utf8')).toBe(printed);
    // A link to nothing yet creates the file it names; a file keeps its permissions.
    symlinkSync('later.txt', join(dir, 'dangling.txt'));
    expect((await runMain(ws, ['render', 'cli-task', '--format', 'text', '-o', join(dir, 'dangling.txt')])).code).toBe(0);
    expect(lstatSync(join(dir, 'dangling.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'later.txt'), 'utf8')).toBe(printed);
    chmodSync(join(dir, 'later.txt'), 0o600);
    expect((await runMain(ws, ['render', 'cli-task', '-o', join(dir, 'later.txt')])).code).toBe(0);
    expect(statSync(join(dir, 'later.txt')).mode & 0o777).toBe(0o600);
    // A pipe (like /dev/stdout or /dev/null) is written to, never replaced by a file.
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve, reject) => {
      const cat = spawn('cat', [fifo]);
      let out = '';
      cat.stdout.on('data', (b) => (out += b));
      cat.on('error', reject);
      cat.on('close', () => resolve(out));
    });
    const r = await runCli(ws, ['render', 'cli-task', '--format', 'text', '-o', fifo]);
    expect(r.code, r.stderr).toBe(0);
    expect(await reader).toBe(printed);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['dangling.txt', 'later.txt', 'link.txt', 'pipe', 'real.txt']);
  });

  it('prints the rendering inside the JSON object without -o', async () => {
    const r = await runMain(ws, ['render', 'cli-task', '--format', 'comment', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ledger: 'cli-task', revision: last, format: 'comment' });
    expect(out.content).toContain('Who owns it?');
  });

  it('refuses an unknown format, an unknown canvas and an unwritable -o with exit 2 and a code', async () => {
    const f = await runCli(ws, ['render', 'cli-task', '--format', 'pdf', '--json']);
    expect(f.code).toBe(2);
    expect(JSON.parse(f.stdout).error.code).toBe('USAGE');
    const n = await runMain(ws, ['render', 'no-such-task', '--json']);
    expect(n.code).toBe(2);
    expect(JSON.parse(n.stdout).error.code).toBe('CANVAS_NOT_FOUND');
    const o = await runMain(ws, ['render', 'cli-task', '-o', join(tmpdir(), 'no-such-dir-canvas', 'x.html'), '--json']);
    expect(o.code).toBe(2);
    expect(JSON.parse(o.stdout).error.code).toBe('USAGE');
    expect(existsSync(join(tmpdir(), 'no-such-dir-canvas'))).toBe(false);
  });

  it.runIf(existsSync('/dev/full'))('an -o on a full device is NO_SPACE naming the file, exit 1, not a usage error', async () => {
    const r = await runMain(ws, ['render', 'cli-task', '-o', '/dev/full', '--json']);
    expect(r.code, r.stdout).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string; data: { path: string } } };
    expect(error.code).toBe('NO_SPACE');
    expect(error.data.path).toBe('/dev/full');
  });

  it('refuses -o inside the canvas repository, directly or through a link, writing nothing (OUTPUT_IN_REPOSITORY)', async () => {
    const dir = tempDir('canvas-out-');
    symlinkSync(ws.repo, join(dir, 'repo'));
    symlinkSync(join(ws.repo, 'page.html'), join(dir, 'page.html'));
    const before = repoState(ws);
    const tries = [
      ['render', 'cli-task', '-o', join(ws.repo, 'page.html')],
      ['render', 'cli-task', '--format', 'comment', '-o', join(ws.repo, 'cli-task.xml')],
      ['render', 'cli-task', '-o', join(ws.repo, '.git', 'page.html')],
      ['render', 'cli-task', '-o', join(dir, 'repo', 'page.html')],
      ['render', 'cli-task', '-o', join(dir, 'page.html')],
      ['prompt', 'cli-task', '-o', join(ws.repo, 'prompt.txt')],
    ];
    for (const args of tries) {
      const r = await runMain(ws, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.code, args.join(' ')).toBe('OUTPUT_IN_REPOSITORY');
      expect(repoState(ws), args.join(' ')).toEqual(before);
    }
    expect(readdirSync(join(ws.repo, '.git')).filter((n) => n.includes('page'))).toEqual([]);
  });

  it('needs no role: a reader without a grant renders', async () => {
    const r = await runMain(ws, ['render', 'cli-task', '--format', 'comment'], { CANVAS_AUTHOR: 'stranger | by-hand' });
    expect(r.code).toBe(0);
  });
});

describe('canvas prompt', () => {
  it('prints the prompt with the last N edits', async () => {
    const r = await runMain(ws, ['prompt', 'cli-task', '--edits', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Canvas-Base: ${last}`);
    expect(r.stdout).toContain('Recent edits (newest first, 1):');
    expect(r.stdout).toContain('nobody said');
    expect(r.stdout).not.toContain('the expected value, as stated');
  });

  it('refuses --edits that is not a whole number, and takes 0 for no edits', async () => {
    for (const bad of ['-1', 'x', '1.5']) {
      const r = await runMain(ws, ['prompt', 'cli-task', '--json', '--edits', bad]);
      expect(r.code, bad).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('USAGE');
    }
    const none = await runMain(ws, ['prompt', 'cli-task', '--edits', '0']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('Recent edits: none.');
  });
});

describe('canvas read stays light', () => {
  it('runs no renderer and no syntax-tree serializer; canvas render does', async () => {
    const RENDER = /^(src\/render\/|node_modules\/(hast-util-to-html|mdast-util-to-markdown)\/)/;
    const r = await loadedBy(ws, ['read', 'cli-task']);
    expect(r.code).toBe(0);
    expect(r.modules.has('src/cli/main.ts')).toBe(true);
    expect(matching(r.modules, RENDER)).toEqual([]);
    const render = await loadedBy(ws, ['render', 'cli-task']);
    expect(render.code).toBe(0);
    expect(render.modules.has('src/render/html/render-page.ts')).toBe(true);
    expect(render.modules.has('node_modules/hast-util-to-html/lib/index.js')).toBe(true);
  });
});
