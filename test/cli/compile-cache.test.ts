// The start's code cache (src/cli/start.ts): made by the first run of a command, taken by the
// next, replaced when V8 refuses it or the bundle changes, and never taken from an unsafe place.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/workspace.js';
import { AUTHOR, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

let ws: Workspace;

beforeAll(async () => {
  ws = tempWorkspace();
  expect((await runCli(ws, ['create', 'cached', '--why', 'a canvas to read'])).code).toBe(0);
});

function cacheDir(): string {
  return mkdtempSync(join(tmpdir(), 'canvas-cc-'));
}

/** The cache files of a directory, with what identifies each version of them. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    const s = statSync(join(dir, f));
    out[f] = `${s.ino}:${s.mtimeMs}:${s.size}`;
  }
  return out;
}

describe('the compile cache', () => {
  it('is made by the first run of a command and taken, unchanged, by the next', async () => {
    const dir = cacheDir();
    const first = await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    expect(first.code).toBe(0);
    const made = files(dir);
    expect(Object.keys(made)).toEqual([expect.stringMatching(/^canvas\.cjs\.read\.[0-9a-f]{8}\.[0-9a-f]{8}\.bin$/)]);
    const second = await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    expect(second).toEqual(first);
    // V8 took the data: it was not written again.
    expect(files(dir)).toEqual(made);
    // Another command has its own; the renderers' bundle has its own too.
    expect((await runCli(ws, ['render', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    expect(Object.keys(files(dir)).map((f) => f.split('.').slice(0, 3).join('.'))).toEqual([
      'canvas-lazy.cjs.render',
      'canvas.cjs.read',
      'canvas.cjs.render',
    ]);
  });

  it('data V8 refuses (here: garbage) costs nothing but speed, and is replaced', async () => {
    const dir = cacheDir();
    const clean = await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    const [name] = Object.keys(files(dir));
    writeFileSync(join(dir, name!), Buffer.from('not a code cache at all'));
    const again = await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    expect(again).toEqual(clean);
    expect(readFileSync(join(dir, name!)).toString('latin1')).not.toBe('not a code cache at all');
  });

  it('is off with CANVAS_DISABLE_COMPILE_CACHE=1, and never taken from a directory others may write', async () => {
    const off = cacheDir();
    expect((await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: off, CANVAS_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(readdirSync(off)).toEqual([]);
    const open = cacheDir();
    chmodSync(open, 0o777);
    const r = await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: open });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<canvas ledger="cached"');
    expect(readdirSync(open)).toEqual([]);
  });

  it('a new build of a bundle replaces the data the old one left for the command', () => {
    // A copy of the bundles, as another install of the same version would be.
    const install = mkdtempSync(join(tmpdir(), 'canvas-install-'));
    mkdirSync(join(install, 'cli'));
    cpSync(join(ROOT, 'dist', 'cli'), join(install, 'cli'), { recursive: true });
    const dir = cacheDir();
    const run = () =>
      spawnSync(process.execPath, [join(install, 'cli', 'start.cjs'), 'read', 'cached'], {
        env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: AUTHOR, CANVAS_COMPILE_CACHE: dir },
        encoding: 'utf8',
      });
    expect(run().status).toBe(0);
    const before = Object.keys(files(dir));
    expect(before).toHaveLength(1);
    utimesSync(join(install, 'cli', 'canvas.cjs'), new Date(), new Date(Date.now() + 60_000));
    expect(run().status).toBe(0);
    const after = Object.keys(files(dir));
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });
});
