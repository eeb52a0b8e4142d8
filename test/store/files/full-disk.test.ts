import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Outcome, Proposed } from '../../../src/store/repo/outcome.js';
import { approveProposal, rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvasText } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { resolveWorkspace, type Workspace } from '../../../src/store/repo/workspace.js';
import { repoState, runCli } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Writes on a real, nearly full disk (docs/errors.md, NO_SPACE; docs/store.md, "Concurrency and
 * crashes"): a small tmpfs, filled so that only a few pages are left, and every kind of write run
 * with 0, 1, 2, ... pages free until it goes through. On tmpfs every file takes whole 4 KiB
 * pages, so each step lets the write get one file further: the lock, the objects, the two ref
 * lock files, the working files, the caches. At every step the outcome is the truth: applied
 * exactly when main moved, else NO_SPACE naming the path with nothing changed; and once space
 * is freed, verify is green and the next write applies.
 *
 * Mounting needs root; the suite skips, saying so, where it cannot mount, and fails under
 * CI=true, where it must run.
 */

const PAGE = 4096;

function tryMount(): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = tempDir('canvas-full-disk-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

/** Whether a tmpfs can be mounted here: mounted and unmounted at once, so that a run that
 * filters these tests out, or is killed, leaves nothing mounted; the real mount is made in
 * `beforeAll` and removed in `afterAll`. */
function canMount(): boolean {
  const dir = tryMount();
  if (!dir) return false;
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
  return true;
}

const mountable = canMount();
let mounted: string | null = null;
if (!mountable) console.warn('full-disk tests skipped: cannot mount a tmpfs here (needs root and mount permission)');

describe.runIf(!mountable && process.env.CI === 'true')('under CI', () => {
  it('mounts the small tmpfs the full-disk tests need', () => {
    throw new Error('CI=true but a tmpfs cannot be mounted: run the tests as root where mount is allowed');
  });
});

function git(ws: Workspace, args: string[]): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8' }).trim();
}

interface Source {
  ws: Workspace;
  node: string;
  open: string[];
}

/** A canvas with a node, a commenter and two open proposals, its refs packed (see below). */
async function source(): Promise<Source> {
  const ws = resolveWorkspace({ workspace: tempDir('canvas-full-src-') });
  await createCanvas(ws, { ledger: 'k', why: 'a full disk', author: 'leo' });
  await grantRole(ws, { ledger: 'k', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
  const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
  const t = (await insertNode(ws, { ledger: 'k', into: 'root', payload: { text: 'Draft.' }, base, why: 'a draft', author: 'leo' })) as Applied;
  const open: string[] = [];
  for (const text of ['Better.', 'Other.']) {
    const b = (await readCanvasText(ws, { ledger: 'k' })).revision;
    open.push(((await replaceNode(ws, { ledger: 'k', node: t.node!, payload: { text }, base: b, why: text, author: 'cam' })) as Proposed).proposalId);
  }
  // Packed refs: the ref update then frees no page (there is no loose ref file to replace), so
  // some step fails after main moved, in the working files.
  git(ws, ['pack-refs', '--all']);
  return { ws, node: t.node!, open };
}

type Write = (ws: Workspace, s: Source) => Promise<Outcome>;

const WRITES: Array<[string, Write]> = [
  ['replace', async (ws, s) => replaceNode(ws, { ledger: 'k', node: s.node, payload: { text: 'Final.' }, base: (await readCanvasText(ws, { ledger: 'k' })).revision, why: 'final', author: 'leo' })],
  ['propose', async (ws, s) => replaceNode(ws, { ledger: 'k', node: s.node, payload: { text: 'Third.' }, base: (await readCanvasText(ws, { ledger: 'k' })).revision, why: 'third', author: 'cam' })],
  ['approve', (ws, s) => approveProposal(ws, { ledger: 'k', proposal: s.open[0]!, why: 'agreed', author: 'leo' })],
  ['reject', (ws, s) => rejectProposal(ws, { ledger: 'k', proposal: s.open[1]!, why: 'not now', author: 'leo' })],
  ['grant', (ws) => grantRole(ws, { ledger: 'k', who: 'ada', role: 'viewer', why: 'ada reads', author: 'leo' })],
  ['freeze', (ws) => freezeCanvas(ws, { ledger: 'k', why: 'done', author: 'leo' })],
];

let trial = 0;

/** For each write, the fewest free pages with which main moved (the CLI test uses propose's). */
const firstMoved = new Map<string, number>();

/** Files of main whose working file is missing or differs (left lagging by a write that was applied). */
function lagging(ws: Workspace): string[] {
  const files = repoState(ws).files;
  return git(ws, ['ls-tree', '-r', '--name-only', 'main'])
    .split('\n')
    .filter((path) => files[path] !== execFileSync('git', ['show', `main:${path}`], { cwd: ws.repo, encoding: 'utf8' }));
}

/**
 * A copy of the source workspace on the small disk, with exactly `pages` pages left free.
 *
 * @param prepare - run on the copy before the disk is filled
 */
function onFullDisk(s: Source, pages: number, prepare?: (ws: Workspace) => void): { ws: Workspace; filler: string } {
  trial += 1;
  const root = join(mounted!, `t${trial}`);
  rmSync(join(mounted!, `t${trial - 1}`), { recursive: true, force: true });
  mkdirSync(root);
  cpSync(s.ws.root, root, { recursive: true });
  prepare?.(resolveWorkspace({ workspace: root }));
  const filler = join(mounted!, 'filler');
  rmSync(filler, { force: true });
  const { bavail, bsize } = statfsSync(mounted!);
  expect(bsize).toBe(PAGE);
  writeFileSync(filler, Buffer.alloc((bavail - pages) * PAGE));
  expect(statfsSync(mounted!).bavail).toBe(pages);
  return { ws: resolveWorkspace({ workspace: root }), filler };
}

/** Run a write and what it threw, if anything. */
async function attempt(fn: () => Promise<Outcome>): Promise<Outcome | CanvasError> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
}

describe.skipIf(!mountable)('writes on a full disk (a real 2 MiB tmpfs)', () => {
  let src: Source;
  beforeAll(async () => {
    mounted = tryMount();
    if (!mounted) throw new Error('the tmpfs mounted a moment ago cannot be mounted now');
    src = await source();
  });
  afterAll(() => {
    if (mounted) {
      // Lazily (-l): the store's long-lived git helpers may still have their working directory on
      // the tmpfs until their idle period ends, which makes a plain umount fail as busy.
      execFileSync('umount', ['-l', mounted]);
      rmSync(mounted, { recursive: true, force: true });
      mounted = null;
    }
    if (src) rmSync(src.ws.root, { recursive: true, force: true });
  });

  for (const [name, write] of WRITES) {
    it(`${name}: applied exactly when main moved, else NO_SPACE with nothing changed; then verify green and the next write applies`, async () => {
      let pages = 0;
      let noSpace = 0;
      let lagged = 0;
      for (; ; pages += 1) {
        expect(pages, 'the write never went through').toBeLessThan(16);
        const { ws, filler } = onFullDisk(src, pages);
        const before = repoState(ws);
        const main = git(ws, ['rev-parse', 'main']);
        const result = await attempt(() => write(ws, src));
        const moved = git(ws, ['rev-parse', 'main']);
        const label = `${name} with ${pages} page(s) free: ${JSON.stringify(result)}`;
        if (result instanceof CanvasError) {
          expect(result.code, label).toBe('NO_SPACE');
          expect(result.data.path, label).toMatch(new RegExp(`^${ws.repo}/`));
          expect(moved, label).toBe(main);
          expect(repoState(ws), label).toEqual(before);
          noSpace += 1;
        } else {
          expect(['applied', 'proposed'], label).toContain(result.outcome);
          expect(moved, label).not.toBe(main);
          expect((result as Applied).revision, label).toBe(moved);
          if (!firstMoved.has(name)) {
            firstMoved.set(name, pages);
            console.log(`${name}: main moved first with ${pages} page(s) free`);
          }
          if (lagging(ws).length > 0) lagged += 1;
        }
        rmSync(filler);
        expect((await verifyWorkspace(ws)).violations, label).toEqual([]);
        const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
        const next = await replaceNode(ws, { ledger: 'k', node: src.node, payload: { text: `Next ${pages}.` }, base, why: 'after space was freed', author: 'leo' });
        expect(next.outcome, label).toBe('applied');
        // Done once the write went through with its working files and caches all written.
        if (!(result instanceof CanvasError) && statfsSync(mounted!).bavail > 0) break;
      }
      expect(noSpace).toBeGreaterThan(0);
      // With packed refs, the first write that moved main found no page for its working files:
      // applied all the same, its files lagging until verify (or the next write) repaired them.
      if (name !== 'freeze') expect(lagged).toBeGreaterThan(0);
    });
  }

  it('canvas verify on a full disk: verified all the same, reading only, what it would repair said; once space is freed it repairs', async () => {
    const missing = `proposals/k/${src.open[1]}.json`;
    const { ws, filler } = onFullDisk(src, 0, (w) => rmSync(join(w.repo, missing)));
    const before = repoState(ws);
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
    expect(report.repaired).toEqual([]);
    expect(report.unrepaired).toEqual([expect.stringMatching(new RegExp(`^rewrite ${missing} from main \\(it is missing\\): not done, the repository cannot be written \\(no space left`))]);
    expect(repoState(ws)).toEqual(before);
    const cli = await runCli(ws, ['verify', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, unrepaired: [expect.stringContaining(missing)] });
    rmSync(filler);
    const freed = await verifyWorkspace(ws);
    expect(freed).toMatchObject({ ok: true, unrepaired: [], repaired: [expect.stringContaining(missing)] });
  });

  it('the CLI says NO_SPACE (exit 1, the path, no stack trace) and exit 0 once main moved', async () => {
    const seen = new Set<number>();
    const moves = firstMoved.get('propose') ?? 8;
    for (const pages of [0, moves - 1, moves]) {
      const { ws, filler } = onFullDisk(src, pages);
      const main = git(ws, ['rev-parse', 'main']);
      const r = await runCli(ws, ['replace', 'k', src.node, '--text', 'By the CLI.', '--base', main, '--why', 'cli', '--json'], { CANVAS_AUTHOR: 'cam' });
      const moved = git(ws, ['rev-parse', 'main']) !== main;
      const label = `${pages} page(s): exit ${r.code} ${r.stdout} ${r.stderr}`;
      seen.add(r.code);
      expect(r.code === 0, label).toBe(moved);
      if (r.code !== 0) {
        expect(r.code, label).toBe(1);
        expect(JSON.parse(r.stdout).error, label).toMatchObject({ code: 'NO_SPACE', data: { path: expect.stringContaining(ws.repo) } });
      } else {
        expect(JSON.parse(r.stdout), label).toMatchObject({ outcome: 'proposed', revision: git(ws, ['rev-parse', 'main']) });
      }
      expect(r.stderr, label).not.toMatch(/\n\s+at /);
      rmSync(filler);
    }
    expect([...seen].sort()).toEqual([0, 1]);
    const { ws, filler } = onFullDisk(src, 0);
    const r = await runCli(ws, ['replace', 'k', src.node, '--text', 'By the CLI.', '--base', git(ws, ['rev-parse', 'main']), '--why', 'cli']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^canvas: NO_SPACE: .*\nhint: free some space/);
    rmSync(filler);
  });

  it('reads, renders and prompts still work on a full disk (the caches are only caches)', async () => {
    const { ws, filler } = onFullDisk(src, 0, (copy) => rmSync(join(copy.repo, '.git', 'canvas-cache'), { recursive: true, force: true }));
    for (const args of [
      ['read', 'k'],
      ['render', 'k'],
      ['render', 'k', '--format', 'comment'],
      ['prompt', 'k'],
      ['log', 'k'],
    ]) {
      const r = await runCli(ws, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    rmSync(filler);
  });

  it('a read that finds the canvas refs to check against main answers from main on a full disk, without the lock', async () => {
    // Two canvases and no refs marker: the refs must be checked against main, which takes the
    // repository lock when it can; on a full disk even its temporary file cannot be written.
    const two = await source();
    await createCanvas(two.ws, { ledger: 'j', why: 'a second canvas', author: 'leo' });
    const { ws, filler } = onFullDisk(two, 0, (copy) => rmSync(join(copy.repo, '.git', 'canvas-cache'), { recursive: true, force: true }));
    for (const args of [['read', 'k'], ['read', 'j'], ['list']]) {
      const r = await runCli(ws, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    rmSync(filler);
  });
});
