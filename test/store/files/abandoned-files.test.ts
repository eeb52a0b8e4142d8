// What a killed process leaves in `.git/canvas-tmp/` (docs/store.md, "Temporary files"): a private
// file it wrote and never renamed into place. The next write removes one whose process is gone
// and that is more than an hour old, and keeps every other; `canvas verify` removes and reports
// them too. Every private file of the store is made in that folder.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import type { Applied } from '../../../src/store/repo/outcome.js';
import { readCanvasText } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { unwatchCanvas, watchCanvas } from '../../../src/store/watch/watch-canvas.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { bundleScript } from '../../helpers/bundle-script.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

const HOURS_AGO = Date.now() / 1000 - 2 * 3600;
const live: ChildProcess[] = [];

afterAll(() => {
  for (const c of live) c.kill('SIGKILL');
});

/** The pid of a process that has exited (and been reaped): no process has it now. */
function goneProcess(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  expect(r.status).toBe(0);
  return r.pid;
}

/** The pid of a live process other than this one. */
async function liveProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  live.push(child);
  await once(child.stdout!, 'data');
  return child.pid!;
}

async function canvas(): Promise<{ ws: Workspace; tmp: string; base: string }> {
  const ws = tempWorkspace();
  const c = (await createCanvas(ws, { ledger: 'k', why: 'leftovers', author: AUTHOR })) as Applied;
  expect(c.outcome).toBe('applied');
  return { ws, tmp: join(ws.repo, '.git', 'canvas-tmp'), base: c.revision };
}

/** Put files in `.git/canvas-tmp/`, `old` ones last changed two hours ago. */
function leave(tmp: string, names: string[], old = true): void {
  mkdirSync(tmp, { recursive: true });
  for (const name of names) {
    writeFileSync(join(tmp, name), 'half a file');
    if (old) utimesSync(join(tmp, name), HOURS_AGO, HOURS_AGO);
  }
}

describe('private files a killed process left in .git/canvas-tmp', () => {
  it('the store leaves none between writes: every private file is renamed or linked away', async () => {
    const { ws, tmp, base } = await canvas();
    await insertNode(ws, { ledger: 'k', base, into: 'root', payload: { text: 'Clean.' }, why: 'a write', author: AUTHOR });
    await readCanvasText(ws, { ledger: 'k' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("a watcher's lock makes its private files there too: nothing but watches is left under .git/canvas-watch", async () => {
    const { ws, tmp } = await canvas();
    expect((await watchCanvas(ws, { ledger: 'k', author: 'alice' })).watching).toBe(true);
    expect((await watchCanvas(ws, { ledger: 'k', author: 'bob' })).watching).toBe(true);
    expect((await unwatchCanvas(ws, { ledger: 'k', author: 'bob' })).watching).toBe(false);
    const watchDir = join(ws.repo, '.git', 'canvas-watch');
    const left = readdirSync(watchDir, { recursive: true }).map(String).sort();
    // A private file made under a watcher's folder (or the folder for one) is one no sweep reads:
    // only watchers' folders and their watches are there (the creator watches its canvas too).
    expect(left.filter((name) => !/^[^/]+(?:\/k\.json)?$/.test(name))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(['alice', join('alice', 'k.json'), 'bob']));
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a writer killed between writing its private file and renaming it: the file stays, and goes with the first write once an hour old', async () => {
    const { ws, tmp, base } = await canvas();
    const script = await bundleScript('test/store/fixtures/half-write.ts');
    try {
      const child = spawn(process.execPath, [script.path, join(ws.repo, '.git')], { stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = (await once(child.stdout!, 'data')) as [Buffer];
      const left = line.toString().trim();
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(readdirSync(tmp)).toEqual([left.slice(tmp.length + 1)]);
      // Younger than the hour: a write keeps it (on a shared file system it may be a live writer's).
      const first = (await insertNode(ws, { ledger: 'k', base, into: 'root', payload: { text: 'One.' }, why: 'a write', author: AUTHOR })) as Applied;
      expect(existsSync(left)).toBe(true);
      utimesSync(left, HOURS_AGO, HOURS_AGO);
      await insertNode(ws, { ledger: 'k', base: first.revision, into: 'root', payload: { text: 'Two.' }, why: 'the next write', author: AUTHOR });
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      script.remove();
    }
  });

  it('the next write removes those of a process that has exited, more than an hour old, and keeps the rest', async () => {
    const { ws, tmp, base } = await canvas();
    const gone = goneProcess();
    const other = await liveProcess();
    const abandoned = [
      `k.xml.${gone}.0a1b2c3d`,
      `access__k.json.${gone}.00ff00ff`,
      `canvas-cache__trees__k.json.${gone}.12345678`,
      `objects__ab__${'c'.repeat(38)}.${gone}.deadbeef`,
      `canvas.lock.${gone}.9abcdef0`,
      `canvas-watch__alice__canvas.lock.${gone}.0badcafe`,
      // As working files' private files were named before they had the hex digits.
      `k.xml.${gone}`,
    ];
    const kept = [
      // This process, another live one, and pid 1 (alive, whether kill answers 0 or EPERM).
      `k.xml.${process.pid}.0a1b2c3d`,
      `k.xml.${other}.0a1b2c3d`,
      `k.xml.1.0a1b2c3d`,
      // Not a private file's name.
      'notes.txt',
      `k.xml.${gone}.tmp`,
    ];
    leave(tmp, [...abandoned, ...kept]);
    // A process gone, but its file is young: on a file system another host shares, the pid may
    // be a live writer's there.
    const young = `k.xml.${gone}.fedcba98`;
    leave(tmp, [young], false);
    mkdirSync(join(tmp, `dir.${gone}.0a1b2c3d`));
    utimesSync(join(tmp, `dir.${gone}.0a1b2c3d`), HOURS_AGO, HOURS_AGO);

    const o = await insertNode(ws, { ledger: 'k', base, into: 'root', payload: { text: 'Next.' }, why: 'the next write', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    expect(readdirSync(tmp).sort()).toEqual([...kept, young, `dir.${gone}.0a1b2c3d`].sort());
  });

  it('a read removes nothing', async () => {
    const { ws, tmp } = await canvas();
    const name = `k.xml.${goneProcess()}.0a1b2c3d`;
    leave(tmp, [name]);
    await readCanvasText(ws, { ledger: 'k' });
    expect(existsSync(join(tmp, name))).toBe(true);
  });

  it('canvas verify removes them and says so, and is green', async () => {
    const { ws, tmp } = await canvas();
    const gone = goneProcess();
    const name = `canvas-cache__k.json.${gone}.0a1b2c3d`;
    const mine = `k.xml.${process.pid}.0a1b2c3d`;
    leave(tmp, [name, mine]);
    const report = await verifyWorkspace(ws);
    expect(report.ok).toBe(true);
    expect(report.repaired).toEqual([expect.stringContaining(`.git/canvas-tmp/${name}`)]);
    expect(readdirSync(tmp)).toEqual([mine]);
    expect((await verifyWorkspace(ws)).repaired).toEqual([]);
  });

  it('a first create killed before its rename: the next create removes its folder, verify neither lists nor keeps it', async () => {
    const ws = tempWorkspace();
    const gone = goneProcess();
    const folder = (name: string, old: boolean) => {
      mkdirSync(join(ws.repo, name, '.git'), { recursive: true });
      writeFileSync(join(ws.repo, name, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      if (old) utimesSync(join(ws.repo, name), HOURS_AGO, HOURS_AGO);
    };
    const abandoned = `.canvas-init-${gone}-1700000000000`;
    const young = `.canvas-init-${gone}-1700000000001`;
    folder(abandoned, true);
    folder(young, false);
    expect((await createCanvas(ws, { ledger: 'k', why: 'after a killed create', author: AUTHOR })).outcome).toBe('applied');
    expect(existsSync(join(ws.repo, abandoned))).toBe(false);
    expect(existsSync(join(ws.repo, young))).toBe(true);
    // The young one may be a live create's (another host's): not a file added outside the tool.
    const first = await verifyWorkspace(ws);
    expect(first).toMatchObject({ ok: true, violations: [], repaired: [] });
    utimesSync(join(ws.repo, young), HOURS_AGO, HOURS_AGO);
    const second = await verifyWorkspace(ws);
    expect(second.ok).toBe(true);
    expect(second.repaired).toEqual([expect.stringContaining(young)]);
    expect(existsSync(join(ws.repo, young))).toBe(false);
  });
});
