// The store writes only regular files inside the repository, never through a link
// (docs/store.md, "Where the store writes").
import { execFileSync } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { AUTHOR, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A canvas `r` with one text node, a grant (so `access/r.json` exists) and an open proposal. */
async function setup() {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'r', why: 'links', author: AUTHOR });
  const t = await insertNode(ws, { ledger: 'r', into: 'root', payload: { text: 'Draft.' }, base: (await readCanvas(ws, { ledger: 'r' })).revision, why: 'a draft', author: AUTHOR });
  if (t.outcome !== 'applied') throw new Error('setup');
  expect((await grantRole(ws, { ledger: 'r', who: 'cam', role: 'commenter', why: 'cam reviews', author: AUTHOR })).outcome).toBe('applied');
  const p = await replaceNode(ws, { ledger: 'r', node: t.node!, payload: { text: 'Better.' }, base: (await readCanvas(ws, { ledger: 'r' })).revision, why: 'clearer', author: 'cam' });
  if (p.outcome !== 'proposed') throw new Error('setup');
  return { ws, node: t.node!, proposal: p.proposalId };
}

/** Every object in the repository: a refusal writes none. */
function objects(ws: Workspace): string {
  return execFileSync('git', ['count-objects', '-v'], { cwd: ws.repo, encoding: 'utf8' });
}

/** A directory outside the workspace, with one file in it. */
function outside(): { dir: string; file: string; tree: () => Record<string, string> } {
  const dir = tempDir('canvas-outside-');
  const file = join(dir, 'victim.json');
  writeFileSync(file, 'not yours\n');
  const tree = () =>
    Object.fromEntries(
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .sort()
        .map((n) => [n, lstatSync(join(dir, n)).isFile() ? readFileSync(join(dir, n), 'utf8') : '(dir)']),
    );
  return { dir, file, tree };
}

/** Move a directory of the repository outside and leave a link to it in its place. */
function linkOut(ws: Workspace, rel: string, to: string): void {
  renameSync(join(ws.repo, rel), to);
  symlinkSync(to, join(ws.repo, rel));
}

const writes = (ws: Workspace, node: string, proposal: string) =>
  ({
    grant: async () => grantRole(ws, { ledger: 'r', who: 'eve', role: 'editor', why: 'eve joins', author: AUTHOR }),
    propose: async () => replaceNode(ws, { ledger: 'r', node, payload: { text: 'Cam again.' }, base: (await readCanvas(ws, { ledger: 'r' })).revision, why: 'again', author: 'cam' }),
    reject: async () => rejectProposal(ws, { ledger: 'r', proposal, why: 'not now', author: AUTHOR }),
    replace: async () => replaceNode(ws, { ledger: 'r', node, payload: { text: 'Owner.' }, base: (await readCanvas(ws, { ledger: 'r' })).revision, why: 'owner edit', author: AUTHOR }),
    freeze: async () => freezeCanvas(ws, { ledger: 'r', why: 'done', author: AUTHOR }),
  }) as const;

type Write = keyof ReturnType<typeof writes>;

describe('the store never writes through a link (UNSAFE_PATH)', () => {
  const cases: Array<{ name: string; plant: (ws: Workspace, o: ReturnType<typeof outside>) => void; refused: Write[] }> = [
    {
      name: 'access/r.json is a link to a file outside',
      plant: (ws, o) => {
        rmSync(join(ws.repo, 'access', 'r.json'));
        symlinkSync(o.file, join(ws.repo, 'access', 'r.json'));
      },
      refused: ['grant'],
    },
    { name: 'access/ is a link to a directory outside', plant: (ws, o) => linkOut(ws, 'access', join(o.dir, 'access')), refused: ['grant'] },
    { name: 'proposals/ is a link to a directory outside', plant: (ws, o) => linkOut(ws, 'proposals', join(o.dir, 'proposals')), refused: ['propose', 'reject'] },
    { name: 'proposals/r/ is a link to a directory outside', plant: (ws, o) => linkOut(ws, 'proposals/r', join(o.dir, 'r')), refused: ['propose', 'reject'] },
    {
      name: 'the canvas file is a link to a copy outside',
      plant: (ws, o) => {
        copyFileSync(join(ws.repo, 'r.xml'), join(o.dir, 'r.xml'));
        rmSync(join(ws.repo, 'r.xml'));
        symlinkSync(join(o.dir, 'r.xml'), join(ws.repo, 'r.xml'));
      },
      refused: ['replace', 'grant', 'propose', 'reject', 'freeze'],
    },
    {
      name: 'access/r.json is a directory',
      plant: (ws) => {
        rmSync(join(ws.repo, 'access', 'r.json'));
        mkdirSync(join(ws.repo, 'access', 'r.json'));
        writeFileSync(join(ws.repo, 'access', 'r.json', 'keep'), 'kept\n');
      },
      refused: ['grant'],
    },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.refused.join(', ')} refused, nothing written, verify reports it`, async () => {
      const { ws, node, proposal } = await setup();
      const o = outside();
      c.plant(ws, o);
      const before = { repo: repoState(ws), objects: objects(ws), outside: o.tree() };
      const w = writes(ws, node, proposal);
      for (const name of c.refused) {
        const out = await w[name]();
        expect(out, name).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_PATH' });
        expect(repoState(ws), name).toEqual(before.repo);
        expect(objects(ws), name).toBe(before.objects);
        expect(o.tree(), name).toEqual(before.outside);
      }
      const report = await verifyWorkspace(ws);
      expect(report.ok).toBe(false);
      expect(report.violations.filter((v) => v.rule === 'unsafe-path').map((v) => v.code)).not.toHaveLength(0);
      expect(report.violations.filter((v) => v.rule === 'unsafe-path').every((v) => v.code === 'UNSAFE_PATH')).toBe(true);
      expect(report.repaired).toEqual([]);
      expect(o.tree()).toEqual(before.outside);
    });
  }

  it('a link that is removed is written back by verify, and the refused write then applies', async () => {
    const { ws } = await setup();
    const o = outside();
    linkOut(ws, 'access', join(o.dir, 'access'));
    const untouched = o.tree();
    expect((await grantRole(ws, { ledger: 'r', who: 'eve', role: 'editor', why: 'eve joins', author: AUTHOR })).outcome).toBe('rejected');
    rmSync(join(ws.repo, 'access'));
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
    expect(report.repaired).toHaveLength(1);
    expect(lstatSync(join(ws.repo, 'access')).isDirectory()).toBe(true);
    expect((await grantRole(ws, { ledger: 'r', who: 'eve', role: 'editor', why: 'eve joins', author: AUTHOR })).outcome).toBe('applied');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
    expect(o.tree()).toEqual(untouched);
  });

  it('the command line answers UNSAFE_PATH with exit 2, and verify with exit 4', async () => {
    const { ws } = await setup();
    const o = outside();
    rmSync(join(ws.repo, 'access', 'r.json'));
    symlinkSync(o.file, join(ws.repo, 'access', 'r.json'));
    const before = repoState(ws);
    const r = await runCli(ws, ['grant', 'r', 'eve', 'editor', '--why', 'eve joins', '--json']);
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_PATH' });
    expect(repoState(ws)).toEqual(before);
    expect(readFileSync(o.file, 'utf8')).toBe('not yours\n');
    const v = await runCli(ws, ['verify', '--json']);
    expect(v.code).toBe(4);
    expect(v.stdout).toContain('UNSAFE_PATH');
  });

  for (const folder of ['canvas-tmp', 'canvas-cache', 'canvas-cache/trees']) {
    it(`a symbolic link at .git/${folder} is refused before the lock is taken: nothing written there or here, verify refuses too, a read writes nothing through it`, async () => {
      const { ws, node } = await setup();
      const o = outside();
      const at = join(ws.repo, '.git', folder);
      rmSync(at, { recursive: true, force: true });
      mkdirSync(join(o.dir, 'private'));
      symlinkSync(join(o.dir, 'private'), at);
      const untouched = o.tree();
      const before = repoState(ws);
      const count = objects(ws);
      const base = (await readCanvas(ws, { ledger: 'r' })).revision;
      expect(o.tree()).toEqual(untouched);
      const w = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'Through a link?' }, base, why: 'no', author: AUTHOR });
      expect(w).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_PATH', data: { path: at } });
      expect(repoState(ws)).toEqual(before);
      expect(objects(ws)).toBe(count);
      expect(o.tree()).toEqual(untouched);
      await expect(verifyWorkspace(ws)).rejects.toMatchObject({ code: 'UNSAFE_PATH' });
      const v = await runCli(ws, ['verify', '--json']);
      expect(v.code).toBe(2);
      expect(JSON.parse(v.stdout).error).toMatchObject({ code: 'UNSAFE_PATH' });
      expect(o.tree()).toEqual(untouched);
      // Once the link is gone the store makes the folder again and the write applies.
      rmSync(at);
      expect((await replaceNode(ws, { ledger: 'r', node, payload: { text: 'Written.' }, base, why: 'now', author: AUTHOR })).outcome).toBe('applied');
      expect((await verifyWorkspace(ws)).violations).toEqual([]);
    });
  }

  it('a symbolic link at .git/canvas-watch: the write applies, its watch is dropped, nothing is made through the link, canvas watch is UNSAFE_PATH', async () => {
    const { ws, node } = await setup();
    const o = outside();
    const at = join(ws.repo, '.git', 'canvas-watch');
    rmSync(at, { recursive: true, force: true });
    mkdirSync(join(o.dir, 'watches'));
    symlinkSync(join(o.dir, 'watches'), at);
    const untouched = o.tree();
    const base = (await readCanvas(ws, { ledger: 'r' })).revision;
    expect((await replaceNode(ws, { ledger: 'r', node, payload: { text: 'Applied.' }, base, why: 'the watch is not the write', author: AUTHOR })).outcome).toBe('applied');
    const w = await runCli(ws, ['watch', 'r', '--json'], { CANVAS_AUTHOR: 'newcomer' });
    expect(w.code).toBe(2);
    expect(JSON.parse(w.stdout).error).toMatchObject({ code: 'UNSAFE_PATH' });
    expect(o.tree()).toEqual(untouched);
  });
});
