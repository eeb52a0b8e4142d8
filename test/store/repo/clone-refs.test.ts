import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import { onRefRepair, type RefRepair } from '../../../src/store/repo/rebuild-canvas-refs.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { resolveWorkspace, type Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, baseOf, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

// refs/canvas/* are derived from main (docs/store.md, "Canvas refs"): a clone, which brings main
// only, and a write cut short between its two ref updates both leave them missing or behind, and
// every command rebuilds them from main's history before it uses them. The commands run through
// the CLI's entry in process; real processes pin the streams of the first rebuild and a lock held
// by another live process.

function applied(o: unknown): Applied {
  expect(o).toMatchObject({ outcome: 'applied' });
  return o as Applied;
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function refsOf(repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of git(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/canvas/']).split('\n').filter(Boolean)) {
    const [name, sha] = line.split(' ') as [string, string];
    out[name] = sha;
  }
  return out;
}

/** A workspace with three canvases and a few edits of each, interleaved. */
async function origin(): Promise<{ ws: Workspace; node: string }> {
  const ws = tempWorkspace();
  const bases: Record<string, string> = {};
  for (const ledger of ['alpha', 'beta', 'gamma']) {
    bases[ledger] = applied(await createCanvas(ws, { ledger, why: `canvas ${ledger}`, author: AUTHOR })).revision;
  }
  let node = '';
  for (const ledger of ['alpha', 'beta', 'gamma', 'alpha']) {
    const o = applied(await insertNode(ws, { ledger, into: 'root', payload: { text: `About ${ledger}.` }, base: bases[ledger], why: `a note on ${ledger}`, author: AUTHOR }));
    bases[ledger] = o.revision;
    if (ledger === 'beta') node = o.node!;
  }
  applied(await freezeCanvas(ws, { ledger: 'gamma', why: 'settled', author: AUTHOR }));
  return { ws, node };
}

/** A new workspace whose state/canvas is a `git clone` (or `--mirror`, made non-bare) of another's. */
function cloneOf(from: Workspace, how: 'clone' | 'mirror'): Workspace {
  const root = tempDir(`canvas-${how}-`);
  mkdirSync(join(root, 'state'));
  const repo = join(root, 'state', 'canvas');
  if (how === 'clone') {
    git(root, ['clone', '-q', from.repo, repo]);
  } else {
    git(root, ['clone', '-q', '--mirror', from.repo, join(repo, '.git')]);
    git(repo, ['config', 'core.bare', 'false']);
    git(repo, ['checkout', '-q', '-f', 'main']);
  }
  return { root, repo, ledgerDir: join(root, 'state', 'ledger') };
}

function outDir(): string {
  return join(tempDir('canvas-site-'), 'site');
}

describe('a clone of the workspace: refs/canvas/* rebuilt from main', () => {
  // The origin the tests clone and never write to (the one that writes upstream makes its own).
  let shared: { ws: Workspace; node: string };
  beforeAll(async () => {
    shared = await origin();
  });

  it('git clone: build builds every canvas, saying once that it rebuilt the refs; they equal the original ones', async () => {
    const { ws } = shared;
    const clone = cloneOf(ws, 'clone');
    expect(refsOf(clone.repo)).toEqual({});
    const out = outDir();
    const r = await runCli(clone, ['build', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('built 3');
    expect(r.stderr.match(/rebuilt refs\/canvas\/\* from main/g)).toHaveLength(1);
    expect(r.stderr).toContain('alpha, beta, gamma');
    expect(refsOf(clone.repo)).toEqual(refsOf(ws.repo));
    expect(readdirSync(out).sort()).toEqual(['.canvas-build.json', 'alpha', 'beta', 'gamma', 'index.html']);
    expect(readFileSync(join(out, 'gamma', 'index.html'), 'utf8')).toContain('settled');
    // Once rebuilt, nothing more is said.
    const again = await runMain(clone, ['build', '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('rebuilt');
  });

  it('git clone: read, log, render and a write work in the clone as in the original; verify is green', async () => {
    const { ws, node } = shared;
    const clone = cloneOf(ws, 'clone');
    const want = (await readCanvas(ws, { ledger: 'beta' })).revision;
    const read = await runMain(clone, ['read', 'beta']);
    expect(read.code, read.stderr).toBe(0);
    expect(baseOf(read.stdout)).toBe(want);
    expect(read.stderr).toContain('rebuilt refs/canvas/*');
    const log = await runMain(clone, ['log', 'alpha', '--json']);
    expect(JSON.parse(log.stdout).commits).toHaveLength(3);
    const w = await runMain(clone, ['replace', 'beta', node, '--text', 'Decided in the clone.', '--base', want, '--why', 'decided']);
    expect(w.code, w.stderr).toBe(0);
    const v = await runMain(clone, ['verify']);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it('git clone: a create of a canvas that exists on main is CANVAS_EXISTS, not a second canvas', async () => {
    const { ws } = shared;
    const clone = cloneOf(ws, 'clone');
    const main = git(clone.repo, ['rev-parse', 'main']);
    const r = await runMain(clone, ['create', 'alpha', '--why', 'again', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ code: 'CANVAS_EXISTS' });
    expect(git(clone.repo, ['rev-parse', 'main'])).toBe(main);
  });

  it('verify in a fresh clone rebuilds the refs and reports them as repaired', async () => {
    const { ws } = shared;
    const clone = cloneOf(ws, 'clone');
    const report = await verifyWorkspace(clone);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.repaired.filter((l) => l.startsWith('refs/canvas/'))).toHaveLength(3);
    expect(refsOf(clone.repo)).toEqual(refsOf(ws.repo));
  });

  it('git clone --mirror used as state/canvas: every command works, and a mirror of a clone gets its refs rebuilt', async () => {
    const { ws } = shared;
    const mirror = cloneOf(ws, 'mirror');
    expect(refsOf(mirror.repo)).toEqual(refsOf(ws.repo));
    const out = outDir();
    const r = await runMain(mirror, ['build', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('built 3');
    expect(r.stderr).not.toContain('rebuilt');
    expect((await runMain(mirror, ['verify'])).code).toBe(0);
    // A mirror of a plain clone has no canvas refs either.
    const mirrorOfClone = cloneOf(cloneOf(ws, 'clone'), 'mirror');
    expect(refsOf(mirrorOfClone.repo)).toEqual({});
    const b = await runMain(mirrorOfClone, ['build', '--out', outDir(), '--json']);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).built).toEqual(['alpha', 'beta', 'gamma']);
    expect(refsOf(mirrorOfClone.repo)).toEqual(refsOf(ws.repo));
  });

  it('a clone that fetched newer commits of main: its refs were behind, and are moved along', async () => {
    const { ws, node } = await origin();
    const clone = cloneOf(ws, 'clone');
    expect((await listCanvases(clone)).map((c) => c.ledger)).toEqual(['alpha', 'beta', 'gamma']);
    const before = (await readCanvas(clone, { ledger: 'beta' })).revision;
    const newer = applied(await replaceNode(ws, { ledger: 'beta', node, payload: { text: 'Changed upstream.' }, base: before, why: 'upstream', author: AUTHOR }));
    git(clone.repo, ['fetch', '-q', 'origin']);
    git(clone.repo, ['update-ref', 'refs/heads/main', 'refs/remotes/origin/main']);
    git(clone.repo, ['checkout', '-q', '-f', 'main']);
    const seen: RefRepair[][] = [];
    const stop = onRefRepair((r) => seen.push([...r]));
    try {
      const read = await readCanvas(clone, { ledger: 'beta' });
      expect(read.revision).toBe(newer.revision);
      expect(read.xml).toContain('Changed upstream.');
    } finally {
      stop();
    }
    expect(seen).toEqual([[{ ledger: 'beta', from: before, to: newer.revision }]]);
  });

  it('canvas files on main that no commit names as a canvas: build fails with NO_CANVAS_FOUND and writes nothing', async () => {
    const ws = tempWorkspace();
    mkdirSync(ws.repo, { recursive: true });
    git(ws.repo, ['init', '-q', '-b', 'main']);
    writeFileSync(join(ws.repo, 'x.xml'), '<canvas ledger="x" schema="2"/>\n');
    git(ws.repo, ['add', 'x.xml']);
    git(ws.repo, ['-c', 'user.name=someone', '-c', 'user.email=s@e', 'commit', '-q', '-m', 'by hand']);
    const before = repoState(ws);
    const out = outDir();
    const r = await runMain(ws, ['build', '--out', out, '--json']);
    expect(r.code, r.stdout).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'NO_CANVAS_FOUND', data: { files: ['x.xml'] } });
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(repoState(ws)).toEqual(before);
    // A workspace with no canvas file at all still builds an empty site.
    const empty = tempWorkspace();
    const e = await runMain(empty, ['build', '--out', outDir()]);
    expect(e.code, e.stderr).toBe(0);
  });
});

describe('a canvas ref one commit behind main (a write cut short between its ref updates)', () => {
  async function lagging() {
    const { ws, node } = await origin();
    const before = (await readCanvas(ws, { ledger: 'beta' })).revision;
    const o = applied(await replaceNode(ws, { ledger: 'beta', node, payload: { text: 'The applied edit.' }, base: before, why: 'applied', author: AUTHOR }));
    // The state the crash leaves: main moved, the canvas ref did not.
    git(ws.repo, ['update-ref', 'refs/canvas/beta', before, o.revision]);
    return { ws, node, before, after: o.revision };
  }

  it('read and render show the applied edit, and the ref is repaired', async () => {
    const { ws, after } = await lagging();
    const read = await runMain(ws, ['read', 'beta']);
    expect(read.code, read.stderr).toBe(0);
    expect(baseOf(read.stdout)).toBe(after);
    expect(read.stdout).toContain('The applied edit.');
    expect(read.stderr).toContain('rebuilt refs/canvas/* from main for 1 canvas (beta)');
    expect(git(ws.repo, ['rev-parse', 'refs/canvas/beta'])).toBe(after);
  });

  it('render and the snapshot show the applied edit', async () => {
    const { ws, after } = await lagging();
    const snap = await readSnapshot(ws, { ledger: 'beta' });
    expect(snap.revision).toBe(after);
    const { ws: ws2, after: after2 } = await lagging();
    const r = await runMain(ws2, ['render', 'beta', '--format', 'text']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(after2);
    expect(r.stdout).toContain('The applied edit.');
  });

  it('verify repairs it and reports it as repaired, green', async () => {
    const { ws, before, after } = await lagging();
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
    expect(report.repaired).toContainEqual(expect.stringContaining(`refs/canvas/beta was at ${before.slice(0, 12)}`));
    expect(git(ws.repo, ['rev-parse', 'refs/canvas/beta'])).toBe(after);
  });

  it('a read of another canvas does not leave it behind either; a stale ref lock file is cleared under the lock', async () => {
    const { ws, after } = await lagging();
    writeFileSync(join(ws.repo, '.git', 'refs', 'canvas', 'beta.lock'), after);
    expect((await readCanvas(ws, { ledger: 'alpha' })).xml).toContain('About alpha.');
    expect(git(ws.repo, ['rev-parse', 'refs/canvas/beta'])).toBe(after);
    expect(existsSync(join(ws.repo, '.git', 'refs', 'canvas', 'beta.lock'))).toBe(false);
  });

  it('a read never waits for the repository lock: with a live holder it reads past the lagging ref to main, nothing changed', async () => {
    const { ws, after } = await lagging();
    const start = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const fields = start.slice(start.lastIndexOf(')') + 2).split(' ');
    writeFileSync(join(ws.repo, '.git', 'canvas.lock'), JSON.stringify({ pid: process.pid, start: fields[19], nonce: 'held' }));
    const before = repoState(ws);
    // A read that waited for the holder would end in LOCK_TIMEOUT (exit 1) after 5 s.
    const r = await runCli(ws, ['read', 'beta', '--json'], { CANVAS_LOCK_TIMEOUT_MS: '5000' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).revision).toBe(after);
    const list = await runCli(ws, ['list', '--json'], { CANVAS_LOCK_TIMEOUT_MS: '5000' });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(after);
    expect(repoState(ws)).toEqual(before);
    rmSync(join(ws.repo, '.git', 'canvas.lock'));
  });
});

/** A read-only view of a directory (a bind mount remounted read-only), or null where one cannot be made. */
function readOnlyView(dir: string): string | null {
  if (process.getuid?.() !== 0) return null;
  const view = tempDir('canvas-ro-');
  try {
    execFileSync('mount', ['--bind', dir, view], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'remount,ro,bind', view], { stdio: 'ignore' });
    return view;
  } catch {
    try {
      execFileSync('umount', [view], { stdio: 'ignore' });
    } catch {
      // was not mounted
    }
    return null;
  }
}

describe('a repository this process cannot write', () => {
  it('a read past a ref left behind shows the latest commit on main and changes nothing', async (t) => {
    const { ws, node } = await origin();
    const before = (await readCanvas(ws, { ledger: 'beta' })).revision;
    const o = applied(await replaceNode(ws, { ledger: 'beta', node, payload: { text: 'The applied edit.' }, base: before, why: 'applied', author: AUTHOR }));
    git(ws.repo, ['update-ref', 'refs/canvas/beta', before, o.revision]);
    const view = readOnlyView(ws.root);
    if (!view) {
      t.skip('needs root to make a read-only bind mount');
      return;
    }
    try {
      const ro = resolveWorkspace({ workspace: view });
      const read = await readCanvas(ro, { ledger: 'beta' });
      expect(read.revision).toBe(o.revision);
      expect(read.xml).toContain('The applied edit.');
      expect(git(ws.repo, ['rev-parse', 'refs/canvas/beta'])).toBe(before);
    } finally {
      // Lazily: the shared git cat-file of this process may still have its working directory there.
      execFileSync('umount', ['-l', view]);
      rmSync(view, { recursive: true, force: true });
    }
  });
});
