import { execFileSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCommitMessage } from '../../../src/store/repo/canvas-commit.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import type { Applied } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { onRefRepair, type RefRepair } from '../../../src/store/repo/rebuild-canvas-refs.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { AUTHOR, baseOf, runCli, tempWorkspace } from '../../helpers/workspace.js';

// A canvas ref ahead of main, or anywhere off it (docs/store.md, "Canvas refs"): a ref
// transaction killed after the canvas ref moved and before main did, or a hand `update-ref`.
// Reads never show a revision that is not on main: they rebuild the refs from main first.

function applied(o: unknown): Applied {
  expect(o).toMatchObject({ outcome: 'applied' });
  return o as Applied;
}

function git(ws: Workspace, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd: ws.repo,
    encoding: 'utf8',
    input,
    env: { ...process.env, GIT_AUTHOR_NAME: AUTHOR, GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' },
  }).trim();
}

/**
 * Canvases a and b, a edited twice, then b edited (main's newest commit is b's), and an edit of a
 * committed on top of main in the store's format whose ref transaction moved refs/canvas/a only.
 */
async function aheadOfMain(): Promise<{ ws: Workspace; latest: string; ahead: string; main: string }> {
  const ws = tempWorkspace();
  const a0 = applied(await createCanvas(ws, { ledger: 'a', why: 'canvas a', author: AUTHOR }));
  const a1 = applied(await insertNode(ws, { ledger: 'a', into: 'root', payload: { text: 'One.' }, base: a0.revision, why: 'one', author: AUTHOR }));
  const b0 = applied(await createCanvas(ws, { ledger: 'b', why: 'canvas b', author: AUTHOR }));
  applied(await insertNode(ws, { ledger: 'b', into: 'root', payload: { text: 'Elsewhere.' }, base: b0.revision, why: 'b', author: AUTHOR }));
  const main = git(ws, ['rev-parse', 'refs/heads/main']);
  // The marker as an earlier command left it: the file system stamps times at a clock tick (a few
  // milliseconds), and a ref moved within the tick of the marker's write is not told apart.
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(ws.repo, '.git', 'canvas-cache', '_refs-main'), past, past);
  const msg = formatCommitMessage('replace', a1.node!, 'never on main', {
    'Canvas-Op': 'replace',
    'Canvas-Ledger': 'a',
    'Canvas-Node': a1.node!,
    'Canvas-Author': AUTHOR,
    'Canvas-Base': a1.revision,
    'Canvas-Previous': a1.revision,
  });
  const ahead = git(ws, ['commit-tree', `${main}^{tree}`, '-p', main, '-F', '-'], msg);
  git(ws, ['update-ref', 'refs/canvas/a', ahead, a1.revision]);
  return { ws, latest: a1.revision, ahead, main };
}

describe('a canvas ref that is not on main is rebuilt from main by reads', () => {
  it('library: read shows the canvas latest commit on main, the ref is set back, and listeners hear of it', async () => {
    const { ws, latest, ahead, main } = await aheadOfMain();
    const heard: RefRepair[] = [];
    const stop = onRefRepair((r) => heard.push(...r));
    try {
      expect((await readCanvas(ws, { ledger: 'a' })).revision).toBe(latest);
    } finally {
      stop();
    }
    expect(heard).toEqual([{ ledger: 'a', from: ahead, to: latest }]);
    expect(git(ws, ['rev-parse', 'refs/canvas/a'])).toBe(latest);
    expect(git(ws, ['rev-parse', 'refs/heads/main'])).toBe(main);
  });

  it('library: the list of canvases shows revisions on main only', async () => {
    const { ws, latest } = await aheadOfMain();
    expect((await listCanvases(ws)).find((c) => c.ledger === 'a')?.revision).toBe(latest);
  });

  it('command: read prints the revision on main as Canvas-Base and says once that it rebuilt the ref', async () => {
    const { ws, latest } = await aheadOfMain();
    const run = await runCli(ws, ['read', 'a']);
    expect(run.code).toBe(0);
    expect(baseOf(run.stdout)).toBe(latest);
    expect(run.stderr).toContain('rebuilt refs/canvas/* from main');
    const again = await runCli(ws, ['read', 'a']);
    expect(baseOf(again.stdout)).toBe(latest);
    expect(again.stderr).toBe('');
  });

  it('a ref moved by hand to a commit off main (a side commit of the canvas) is rebuilt as well', async () => {
    const { ws, latest } = await aheadOfMain();
    const side = git(ws, ['commit-tree', `${latest}^{tree}`, '-p', latest, '-m', 'a side commit']);
    git(ws, ['update-ref', 'refs/canvas/a', side]);
    expect((await readCanvas(ws, { ledger: 'a' })).revision).toBe(latest);
  });
});
