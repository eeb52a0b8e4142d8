// The start's code cache (src/cli/start.ts): made by the first run of a command, taken by the
// next, replaced when it is damaged, refused or the bundle changes, and never taken from an
// unsafe place.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AUTHOR, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

let ws: Workspace;

beforeAll(async () => {
  ws = tempWorkspace();
  expect((await runCli(ws, ['create', 'cached', '--why', 'a canvas to read'])).code).toBe(0);
});

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
    const dir = tempDir('canvas-cc-');
    const first = await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    expect(first.code).toBe(0);
    const before = files(dir);
    expect(Object.keys(before)).toEqual([expect.stringMatching(/^canvas\.cjs\.read\.[0-9a-f]{8}\.[0-9a-f]{8}\.bin$/)]);
    const second = await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    expect(second).toEqual(first);
    // The data was taken: it was not written again.
    expect(files(dir)).toEqual(before);
    // Another command has its own; the renderers' bundle has its own too; anything that is not a
    // command shares one.
    expect((await runCli(ws, ['render', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    expect((await runCli(ws, ['--version'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    expect((await runCli(ws, ['raed', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(2);
    expect(Object.keys(files(dir)).map((f) => f.split('.').slice(0, 3).join('.'))).toEqual(['canvas-lazy.cjs.render', 'canvas.cjs._', 'canvas.cjs.read', 'canvas.cjs.render']);
  });

  it('is made only by a run that succeeded: a refused one leaves none, the next that succeeds makes it', async () => {
    // Data made at the exit of a refused run holds only what that run compiled (a replace refused
    // before it wrote: about 390 KB against 540 KB), and every later run would have taken it.
    const dir = tempDir('canvas-cc-');
    const refused = await runCli(ws, ['read', 'nosuch'], { CANVAS_COMPILE_CACHE: dir });
    expect(refused.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
    expect((await runCli(ws, ['read', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^canvas\.cjs\.read\./)]);
  });

  it('damaged data (garbage, or one byte changed) costs nothing but speed, and is replaced', async () => {
    const dir = tempDir('canvas-cc-');
    const clean = await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir });
    const [name] = Object.keys(files(dir));
    const path = join(dir, name!);
    const good = readFileSync(path);
    for (const at of [8, 28, 44, Math.floor(good.length / 2)]) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0xff;
      writeFileSync(path, bad);
      const again = await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir });
      expect(again, `byte ${at}`).toEqual(clean);
      expect(readFileSync(path).equals(bad), `byte ${at}`).toBe(false);
    }
    writeFileSync(path, 'not a code cache at all');
    expect(await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir })).toEqual(clean);
    expect(readFileSync(path, 'latin1')).not.toBe('not a code cache at all');
  });

  it('runs with other flags keep their own file instead of replacing each other', async () => {
    const dir = tempDir('canvas-cc-');
    const plain = { CANVAS_COMPILE_CACHE: dir };
    const flagged = { CANVAS_COMPILE_CACHE: dir, NODE_OPTIONS: '--no-warnings' };
    expect((await runCli(ws, ['read', 'cached'], plain)).code).toBe(0);
    expect((await runCli(ws, ['read', 'cached'], flagged)).code).toBe(0);
    const both = files(dir);
    expect(Object.keys(both)).toHaveLength(2);
    expect((await runCli(ws, ['read', 'cached'], plain)).code).toBe(0);
    expect((await runCli(ws, ['read', 'cached'], flagged)).code).toBe(0);
    expect(files(dir)).toEqual(both);
  });

  it('is off with CANVAS_DISABLE_COMPILE_CACHE, and never taken from a place it should not be', async () => {
    const ok = async (env: Record<string, string>) => {
      const r = await runCli(ws, ['read', 'cached'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('<canvas ledger="cached"');
    };
    const off = tempDir('canvas-cc-');
    for (const value of ['1', 'true']) await ok({ CANVAS_COMPILE_CACHE: off, CANVAS_DISABLE_COMPILE_CACHE: value });
    expect(readdirSync(off)).toEqual([]);
    // Others may write it.
    const open = tempDir('canvas-cc-');
    chmodSync(open, 0o777);
    await ok({ CANVAS_COMPILE_CACHE: open });
    expect(readdirSync(open)).toEqual([]);
    // A symbolic link to a directory.
    const holder = tempDir('canvas-cc-');
    mkdirSync(join(holder, 'real'), { mode: 0o700 });
    symlinkSync(join(holder, 'real'), join(holder, 'link'));
    for (const link of ['link', 'link/', 'link/.']) await ok({ CANVAS_COMPILE_CACHE: `${join(holder, link)}` });
    expect(readdirSync(join(holder, 'real'))).toEqual([]);
    // A pipe where a cache file would be is not waited on.
    const pipes = tempDir('canvas-cc-');
    expect((await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: pipes })).code).toBe(0);
    const [name] = readdirSync(pipes);
    rmSync(join(pipes, name!));
    execFileSync('mkfifo', [join(pipes, name!)]);
    expect((await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: pipes })).code).toBe(0);
    // A relative path, or one whose parent does not exist: nothing is created.
    const cwd = tempDir('canvas-cwd-');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'read', 'cached'], {
      cwd,
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: AUTHOR, CANVAS_COMPILE_CACHE: 'relative-cache' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    await ok({ CANVAS_COMPILE_CACHE: join(holder, 'no', 'such', 'place') });
    expect(existsSync(join(holder, 'no'))).toBe(false);
  });

  it('keeps the directory to 100 files, removing the oldest', async () => {
    const dir = tempDir('canvas-cc-');
    const old = new Date(Date.now() - 86_400_000);
    for (let i = 0; i < 105; i++) {
      const f = join(dir, `canvas.cjs.read.${String(i).padStart(8, '0')}.00000000.bin`);
      writeFileSync(f, 'x');
      utimesSync(f, old, new Date(old.getTime() + i * 1000));
    }
    expect((await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    const left = readdirSync(dir);
    expect(left).toHaveLength(100);
    expect(left.some((f) => f.startsWith('canvas.cjs.log.'))).toBe(true);
    expect(left).not.toContain('canvas.cjs.read.00000000.00000000.bin');
    expect(left).toContain('canvas.cjs.read.00000104.00000000.bin');
  });

  it('a save removes the private files of runs killed before their rename: process gone and an hour old, never a live one', async () => {
    const dir = tempDir('canvas-cc-');
    // A process that has exited (and been reaped): no process has its pid now.
    const exited = spawnSync(process.execPath, ['-e', '0']);
    expect(exited.status).toBe(0);
    const gone = exited.pid;
    const cache = 'canvas.cjs.read.00000000.00000000.bin';
    const old = new Date(Date.now() - 2 * 3_600_000);
    const abandoned = `${cache}.${gone}.tmp`;
    // This test's own process is alive; a young file may be a live writer's on another host.
    const kept = [`${cache}.${process.pid}.tmp`, `${cache}.1.tmp`];
    const young = `canvas.cjs.log.00000000.00000000.bin.${gone}.tmp`;
    for (const name of [abandoned, ...kept, young]) writeFileSync(join(dir, name), 'half a cache');
    for (const name of [abandoned, ...kept]) utimesSync(join(dir, name), old, old);
    expect((await runCli(ws, ['log', 'cached'], { CANVAS_COMPILE_CACHE: dir })).code).toBe(0);
    const left = readdirSync(dir);
    expect(left).not.toContain(abandoned);
    expect(left.filter((f) => f.endsWith('.tmp')).sort()).toEqual([...kept, young].sort());
    expect(left.filter((f) => f.startsWith('canvas.cjs.log.') && f.endsWith('.bin'))).toHaveLength(1);
  });

  it('a bundle rewritten in place, even with its old size and times, is not given the old data', () => {
    // A copy of the bundles, as an unpacked install would be.
    const install = tempDir('canvas-install-');
    mkdirSync(join(install, 'cli'));
    cpSync(join(ROOT, 'dist', 'cli'), join(install, 'cli'), { recursive: true });
    const dir = tempDir('canvas-cc-');
    const version = () =>
      spawnSync(process.execPath, [join(install, 'cli', 'start.cjs'), '--version'], {
        env: { ...process.env, CANVAS_COMPILE_CACHE: dir },
        encoding: 'utf8',
      }).stdout.trim();
    expect(version()).toBe('0.1.0');
    expect(version()).toBe('0.1.0');
    const bundle = join(install, 'cli', 'canvas.cjs');
    const st = statSync(bundle);
    const text = readFileSync(bundle, 'utf8');
    expect(text).toContain('"0.1.0"');
    // What unpacking a newer archive over it does: same path, same size, same times.
    writeFileSync(bundle, text.replace('"0.1.0"', '"9.1.0"'));
    utimesSync(bundle, st.atime, st.mtime);
    expect(statSync(bundle).size).toBe(st.size);
    expect(version()).toBe('9.1.0');
    expect(Object.keys(files(dir))).toHaveLength(1);
    // And back, in place again: the data follows the bytes, not the file's times.
    writeFileSync(bundle, text);
    utimesSync(bundle, st.atime, st.mtime);
    expect(version()).toBe('0.1.0');
  });

  it("is Node's own where Node has one (module.enableCompileCache, given the same directory)", () => {
    // Node 20 has no enableCompileCache: a preloaded stand-in records what the start asks of it.
    const dir = tempDir('canvas-cc-');
    const record = join(tempDir('canvas-cc-record-'), 'asked');
    const standIn = join(tempDir('canvas-cc-stand-in-'), 'enable.cjs');
    writeFileSync(standIn, `require('node:module').enableCompileCache = (d) => require('node:fs').writeFileSync(${JSON.stringify(record)}, d);\n`);
    const r = spawnSync(process.execPath, ['--require', standIn, join(ROOT, 'bin', 'canvas.js'), 'log', 'cached'], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: AUTHOR, CANVAS_COMPILE_CACHE: dir },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(record, 'utf8')).toBe(dir);
    // The start's own cache stayed out of it.
    expect(readdirSync(dir)).toEqual([]);
  });
});
