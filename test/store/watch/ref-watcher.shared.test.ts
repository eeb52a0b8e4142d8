// The one ref watcher of canvas serve and the MCP server (docs/serve.md, "Live"): a write is reported once with the
// revisions it moved between, a canvas made after the watcher started (in a workspace that had no
// repository yet) is found by the fallback read, a watcher no one listens to reads nothing until
// asked, and a closed watcher reports nothing more.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCanvases, readCanvasRefFiles } from '../../../src/store/repo/list-canvases.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { type RefChange, RefWatcher, watchedFolders } from '../../../src/store/watch/ref-watcher.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

/** The next batch of changes the watcher reports. */
function nextChanges(w: RefWatcher): Promise<RefChange[]> {
  return new Promise((resolve) => {
    const stop = w.subscribe((changes) => {
      stop();
      resolve(changes);
    });
  });
}

describe('RefWatcher', () => {
  it('finds a canvas made after it started in a workspace with no repository, then reports each write', async () => {
    const ws = tempWorkspace();
    const w = new RefWatcher(ws, { rescanMs: 50 });
    await w.start();
    try {
      expect([...w.revisions()]).toEqual([]);
      const first = nextChanges(w);
      const c = await createCanvas(ws, { ledger: 'late', why: 'made after the watcher started', author: AUTHOR });
      if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
      expect(await first).toEqual([{ ledger: 'late', from: null, to: c.revision }]);
      const second = nextChanges(w);
      const i = await insertNode(ws, { ledger: 'late', into: 'root', payload: { text: 'Seen.' }, base: c.revision, why: 'a write to see', author: AUTHOR });
      if (i.outcome !== 'applied') throw new Error(JSON.stringify(i));
      expect(await second).toEqual([{ ledger: 'late', from: c.revision, to: i.revision }]);
      expect(w.revisions().get('late')).toBe(i.revision);
    } finally {
      w.close();
    }
  });

  it('reads nothing while no one listens; current() and the first listener then read what moved meanwhile', async () => {
    const ws = tempWorkspace();
    const c = await createCanvas(ws, { ledger: 'quiet', why: 'a canvas no one watches yet', author: AUTHOR });
    if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
    const w = new RefWatcher(ws, { rescanMs: 50 });
    await w.start();
    try {
      expect(w.revisions().get('quiet')).toBe(c.revision);
      const i = await insertNode(ws, { ledger: 'quiet', into: 'root', payload: { text: 'Unheard.' }, base: c.revision, why: 'a write no one listens for', author: AUTHOR });
      if (i.outcome !== 'applied') throw new Error(JSON.stringify(i));
      // The write's file events and several fallback periods pass: nothing is read.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(w.revisions().get('quiet')).toBe(c.revision);
      expect((await w.current()).get('quiet')).toBe(i.revision);
      const j = await insertNode(ws, { ledger: 'quiet', into: 'root', payload: { text: 'Heard later.' }, base: i.revision, why: 'a write before anyone listens', author: AUTHOR });
      if (j.outcome !== 'applied') throw new Error(JSON.stringify(j));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await nextChanges(w)).toEqual([{ ledger: 'quiet', from: i.revision, to: j.revision }]);
    } finally {
      w.close();
    }
  });

  it('reports nothing after it is closed', async () => {
    const ws = tempWorkspace();
    const c = await createCanvas(ws, { ledger: 'quiet', why: 'a canvas', author: AUTHOR });
    if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
    const w = new RefWatcher(ws, { rescanMs: 20 });
    await w.start();
    const heard: RefChange[][] = [];
    w.subscribe((changes) => heard.push(changes));
    w.close();
    await insertNode(ws, { ledger: 'quiet', into: 'root', payload: { text: 'Unheard.' }, base: c.revision, why: 'after close', author: AUTHOR });
    // Longer than the fallback read and the settling time together: a live watcher would have spoken.
    await new Promise((r) => setTimeout(r, 120));
    expect(heard).toEqual([]);
  });
});

// What a file watch alone must see, with the fallback read put off for an hour: a change told
// here was told by file events (docs/mcp.md, "Resources and subscriptions": within a second).
describe('RefWatcher without its fallback read', () => {
  const HOUR = 3_600_000;

  it('sees the repository made after it started in an empty workspace', async () => {
    const ws = tempWorkspace();
    const w = new RefWatcher(ws, { rescanMs: HOUR });
    await w.start();
    try {
      const first = nextChanges(w);
      const c = await createCanvas(ws, { ledger: 'fresh', why: 'the first canvas of the workspace', author: AUTHOR });
      if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
      expect(await first).toEqual([{ ledger: 'fresh', from: null, to: c.revision }]);
    } finally {
      w.close();
    }
  }, 20_000);

  it('watches a replaced .git folder, and refs written by git pack-refs and after', async () => {
    const ws = tempWorkspace();
    const c = await createCanvas(ws, { ledger: 'moved', why: 'a canvas whose repository is replaced', author: AUTHOR });
    if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
    const w = new RefWatcher(ws, { rescanMs: HOUR });
    await w.start();
    try {
      // The repository put back from a copy, as a restore would: the folders watched are gone.
      const git = join(ws.repo, '.git');
      cpSync(git, `${git}.copy`, { recursive: true });
      rmSync(git, { recursive: true });
      renameSync(`${git}.copy`, git);
      const second = nextChanges(w);
      const i = await insertNode(ws, { ledger: 'moved', into: 'root', payload: { text: 'Seen.' }, base: c.revision, why: 'a write into the new folder', author: AUTHOR });
      if (i.outcome !== 'applied') throw new Error(JSON.stringify(i));
      expect(await second).toEqual([{ ledger: 'moved', from: c.revision, to: i.revision }]);
      // Every loose ref moved into packed-refs (their folders emptied), then a write.
      execFileSync('git', ['-C', ws.repo, 'pack-refs', '--all']);
      const third = nextChanges(w);
      const j = await insertNode(ws, { ledger: 'moved', into: 'root', payload: { text: 'Seen again.' }, base: i.revision, why: 'a write after pack-refs', author: AUTHOR });
      if (j.outcome !== 'applied') throw new Error(JSON.stringify(j));
      expect(await third).toEqual([{ ledger: 'moved', from: i.revision, to: j.revision }]);
    } finally {
      w.close();
    }
  }, 20_000);
});

describe('what wakes a RefWatcher', () => {
  it('the files git rewrites for a ref and a replaced folder, never the repository lock’s file that a read trying the lock makes', () => {
    const repo = '/w/state/canvas';
    const folders = new Map(watchedFolders(repo));
    const wakes = (dir: string, name: string) => {
      if (!folders.has(dir)) return false;
      const only = folders.get(dir)!;
      return only === null || only.has(name);
    };
    expect(wakes('/w/state/canvas/.git/refs/canvas', 'plan')).toBe(true);
    expect(wakes('/w/state/canvas/.git/refs/heads', 'main')).toBe(true);
    expect(wakes('/w/state/canvas/.git', 'packed-refs')).toBe(true);
    expect(wakes('/w/state/canvas/.git', 'refs')).toBe(true);
    expect(wakes('/w/state/canvas', '.git')).toBe(true);
    expect(wakes('/w/state', 'canvas')).toBe(true);
    expect(wakes('/w', 'state')).toBe(true);
    // A read that finds the refs to check tries the lock, making and removing this file: were it
    // to wake the watcher, a lock held elsewhere would keep the watcher reading without end.
    expect(wakes('/w/state/canvas/.git', `canvas.lock.${process.pid}.0a1b2c3d.tmp`)).toBe(false);
    expect(wakes('/w/state/canvas/.git', 'canvas.lock')).toBe(false);
    expect(wakes('/w/state/canvas/.git', 'index')).toBe(false);
    expect(wakes('/w/state/canvas', 'plan.xml')).toBe(false);
  });
});

// What the watcher reads after a file event instead of running git (docs/store.md, "Canvas refs").
describe('readCanvasRefFiles', () => {
  it('reads what git for-each-ref lists, loose, packed, and loose over packed; null where the files cannot tell', async () => {
    const ws = tempWorkspace();
    expect(readCanvasRefFiles(ws)).toEqual([]);
    const revisions: Record<string, string> = {};
    for (const ledger of ['b', 'a']) {
      const c = await createCanvas(ws, { ledger, why: 'a canvas', author: AUTHOR });
      if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
      revisions[ledger] = c.revision;
    }
    const agree = async () => expect(readCanvasRefFiles(ws)).toEqual(await listCanvases(ws));
    await agree();
    execFileSync('git', ['pack-refs', '--all'], { cwd: ws.repo });
    await agree();
    const i = await insertNode(ws, { ledger: 'b', into: 'root', payload: { text: 'Moved after packing.' }, base: revisions.b!, why: 'a loose ref over a packed one', author: AUTHOR });
    if (i.outcome !== 'applied') throw new Error(JSON.stringify(i));
    expect(readCanvasRefFiles(ws)).toEqual([
      { ledger: 'a', revision: revisions.a },
      { ledger: 'b', revision: i.revision },
    ]);
    await agree();
    // git's lock of a ref being written is not a ref.
    writeFileSync(join(ws.repo, '.git', 'refs', 'canvas', 'a.lock'), `${i.revision}\n`);
    expect(readCanvasRefFiles(ws)?.map((c) => c.ledger)).toEqual(['a', 'b']);
    rmSync(join(ws.repo, '.git', 'refs', 'canvas', 'a.lock'));
    // A symbolic ref, and a repository kept in reftable: git must answer.
    writeFileSync(join(ws.repo, '.git', 'refs', 'canvas', 'c'), 'ref: refs/heads/main\n');
    expect(readCanvasRefFiles(ws)).toBeNull();
    rmSync(join(ws.repo, '.git', 'refs', 'canvas', 'c'));
    mkdirSync(join(ws.repo, '.git', 'reftable'));
    expect(readCanvasRefFiles(ws)).toBeNull();
  });
});
