import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasError } from '../../../src/model/canvas-error.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Conflict, Outcome } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { setRemote } from '../../../src/store/remote/set-remote.js';
import { syncWorkspace } from '../../../src/store/remote/sync-workspace.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { canvasErrorOf } from '../../helpers/canvas-error-of.js';
import { type GitDaemon, startGitDaemon } from '../../../bench/lib/git-daemon.js';
import { AUTHOR, ROOT, repoState, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Writes through a shared remote (docs/remote.md): a git daemon on 127.0.0.1 and a path remote,
// several workspaces standing for machines.

const git = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

/** A bare repository to share, in a fresh directory. */
function bareRemote(dir: string, name = 'shared.git'): string {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(dir, name)]);
  return join(dir, name);
}

async function machine(url: string): Promise<Workspace> {
  const ws = tempWorkspace('canvas-machine-');
  await setRemote(ws, url);
  return ws;
}

async function base(ws: Workspace, ledger: string): Promise<string> {
  return (await readCanvas(ws, { ledger })).revision;
}

function applied(o: Outcome): Applied {
  expect(o.outcome, JSON.stringify(o)).toBe('applied');
  return o as Applied;
}

/** The remote's main, and its canvas ref, which every push moves together. */
function remoteRefs(bare: string, ledger: string): { main: string; canvas: string } {
  return { main: git(bare, ['rev-parse', 'refs/heads/main']), canvas: git(bare, ['rev-parse', `refs/canvas/${ledger}`]) };
}

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('writes pushed to a git daemon on 127.0.0.1', () => {
  let dir: string;
  let bare: string;
  let daemon: GitDaemon;
  beforeAll(async () => {
    dir = tempDir('canvas-remote-');
    bare = bareRemote(dir);
    daemon = await startGitDaemon(dir, 'shared.git');
  });
  afterAll(async () => {
    await daemon.stop();
  });

  it('a write on one machine reaches the remote with its canvas ref; another machine writes on top of it', async () => {
    const a = await machine(daemon.url('shared.git'));
    const b = await machine(daemon.url('shared.git'));
    const made = applied(await createCanvas(a, { ledger: 'shared', why: 'a canvas two machines write', author: AUTHOR }));
    expect(remoteRefs(bare, 'shared')).toEqual({ main: made.revision, canvas: made.revision });
    const one = applied(await insertNode(a, { ledger: 'shared', into: 'root', payload: text('from a'), base: made.revision, why: 'a writes', author: AUTHOR }));
    // b has never fetched: its write follows the remote first, then applies on top of a's.
    const two = applied(await insertNode(b, { ledger: 'shared', into: 'root', payload: text('from b'), base: one.revision, why: 'b writes', author: AUTHOR }));
    expect(git(bare, ['rev-parse', `${two.revision}^`])).toBe(one.revision);
    expect(remoteRefs(bare, 'shared')).toEqual({ main: two.revision, canvas: two.revision });
    // a stale base on b's side: a node a changed since is a conflict naming it, nothing pushed.
    applied(await replaceNode(a, { ledger: 'shared', node: one.node!, payload: text('from a, changed'), base: two.revision, why: 'a changes its node', author: AUTHOR }));
    const before = remoteRefs(bare, 'shared');
    const c = (await replaceNode(b, { ledger: 'shared', node: one.node!, payload: text('b disagrees'), base: two.revision, why: 'b changes it too', author: AUTHOR })) as Conflict;
    expect(c.outcome).toBe('conflict');
    expect(c.code).toBe('STALE_BASE');
    expect(c.diff.map((d) => d.node)).toEqual([one.node]);
    expect(remoteRefs(bare, 'shared')).toEqual(before);
    for (const ws of [a, b]) {
      await syncWorkspace(ws);
      expect((await verifyWorkspace(ws)).violations).toEqual([]);
      expect(git(ws.repo, ['rev-parse', 'refs/heads/main'])).toBe(before.main);
    }
  });

  it('the remote stopped: a write fails with REMOTE_UNREACHABLE and nothing local moves; when it is back, writing resumes', async () => {
    const a = await machine(daemon.url('shared.git'));
    applied(await createCanvas(a, { ledger: 'outage', why: 'a canvas through an outage', author: AUTHOR }));
    const rev = await base(a, 'outage');
    const state = repoState(a);
    await daemon.stop();
    try {
      const e = await canvasErrorOf(insertNode(a, { ledger: 'outage', into: 'root', payload: text('lost?'), base: rev, why: 'while down', author: AUTHOR }));
      expect(e.code).toBe('REMOTE_UNREACHABLE');
      expect(e.data.url).toBe(daemon.url('shared.git'));
      expect(repoState(a)).toEqual(state);
    } finally {
      await daemon.start();
    }
    const back = applied(await insertNode(a, { ledger: 'outage', into: 'root', payload: text('after'), base: rev, why: 'once it is back', author: AUTHOR }));
    expect(remoteRefs(bare, 'outage').canvas).toBe(back.revision);
  });

  it("the server gone between the fetch and the push: REMOTE_UNREACHABLE with git's message, nothing local or remote moved; back, writing resumes", async () => {
    const a = await machine(daemon.url('shared.git'));
    applied(await createCanvas(a, { ledger: 'mid-write', why: 'a canvas whose push finds no server', author: AUTHOR }));
    const rev = await base(a, 'mid-write');
    // Pushes go to a second daemon on the same repositories, stopped: the fetch is answered, the push is not.
    const pushes = await startGitDaemon(dir, 'shared.git');
    await pushes.stop();
    git(a.repo, ['config', 'remote.shared.pushurl', pushes.url('shared.git')]);
    const state = repoState(a);
    const remote = remoteRefs(bare, 'mid-write');
    try {
      const e = await canvasErrorOf(insertNode(a, { ledger: 'mid-write', into: 'root', payload: text('lost?'), base: rev, why: 'while the server is gone', author: AUTHOR }));
      expect(e.code).toBe('REMOTE_UNREACHABLE');
      expect(e.message).toMatch(/^could not push .*: .*(refused|unable to connect)/i);
      expect(repoState(a)).toEqual(state);
      expect(remoteRefs(bare, 'mid-write')).toEqual(remote);
      await pushes.start();
      const back = applied(await insertNode(a, { ledger: 'mid-write', into: 'root', payload: text('after'), base: rev, why: 'once the server is back', author: AUTHOR }));
      expect(remoteRefs(bare, 'mid-write')).toEqual({ main: back.revision, canvas: back.revision });
      expect(
        git(bare, ['log', '--format=%s', 'refs/heads/main'])
          .split('\n')
          .filter((s) => s.endsWith(': while the server is gone')),
      ).toEqual([]);
    } finally {
      await pushes.stop();
    }
  });

  it('two machines writing different nodes at once: both applied, each once, the refs agreeing', async () => {
    const a = await machine(daemon.url('shared.git'));
    const b = await machine(daemon.url('shared.git'));
    const made = applied(await createCanvas(a, { ledger: 'race', why: 'two writers at once', author: AUTHOR }));
    const rounds = 4;
    const write = (ws: Workspace, who: string) => async () => {
      const out: string[] = [];
      for (let i = 0; i < rounds; i++) {
        const o = applied(await insertNode(ws, { ledger: 'race', into: 'root', payload: text(`${who} ${i}`), base: made.revision, why: `${who} writes ${i}`, author: AUTHOR }));
        out.push(o.revision);
      }
      return out;
    };
    const [fromA, fromB] = await Promise.all([write(a, 'a')(), write(b, 'b')()]);
    const history = git(bare, ['log', '--format=%H', 'refs/heads/main']).split('\n');
    for (const sha of [...fromA, ...fromB]) expect(history.filter((h) => h === sha)).toHaveLength(1);
    expect(remoteRefs(bare, 'race').canvas).toBe(history[0]);
  });

  it('a push the remote refuses (its pre-receive hook) is REMOTE_REFUSED with what it said; nothing moves', async () => {
    const refusing = bareRemote(dir, 'refusing.git');
    const a = await machine(daemon.url('refusing.git'));
    writeFileSync(join(refusing, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes are closed for the release" >&2\nexit 1\n');
    chmodSync(join(refusing, 'hooks', 'pre-receive'), 0o755);
    const state = repoState(a);
    const e = await canvasErrorOf(createCanvas(a, { ledger: 'closed', why: 'refused', author: AUTHOR }));
    expect(e.code).toBe('REMOTE_REFUSED');
    expect(e.message).toContain('pushes are closed for the release');
    expect(git(a.repo, ['for-each-ref', 'refs/heads/', 'refs/canvas/'])).toBe('');
    expect(repoState(a).files).toEqual(state.files);
  });
});

describe('a push beaten by another machine (a path remote whose receive-pack lets the other machine push first)', () => {
  /**
   * Machine b's next push runs, before its receive-pack starts, machine a's `canvas` command
   * given: a real write of a landing on the remote between b's fetch and b's push.
   */
  function beatNextPush(b: Workspace, a: Workspace, args: string[], every = false): string {
    const flag = every ? '/nonexistent/never' : join(b.root, 'beaten');
    const script = join(b.root, 'receive-pack-after-a');
    const cli = `${process.execPath} ${join(ROOT, 'bin', 'canvas.js')}`;
    writeFileSync(
      script,
      `#!/bin/sh\nif [ ! -e ${flag} ]; then touch ${flag} 2>/dev/null; env -u GIT_CONFIG_PARAMETERS -u GIT_DIR CANVAS_WORKSPACE=${a.root} CANVAS_AUTHOR='${AUTHOR}' ${cli} ${args.map((x) => `'${x}'`).join(' ')} >/dev/null || exit 1; fi\nexec git-receive-pack "$@"\n`,
    );
    chmodSync(script, 0o755);
    git(b.repo, ['config', 'remote.shared.receivepack', script]);
    return flag;
  }

  it('on another node: re-checked on the remote state and applied on top', async () => {
    const bare = bareRemote(tempDir('canvas-remote-'));
    const a = await machine(bare);
    const b = await machine(bare);
    const made = applied(await createCanvas(a, { ledger: 'beat', why: 'two machines', author: AUTHOR }));
    const n = applied(await insertNode(a, { ledger: 'beat', into: 'root', payload: text('a first node'), base: made.revision, why: 'seed', author: AUTHOR }));
    const flag = beatNextPush(b, a, ['insert', 'beat', '--into', 'root', '--text', 'a slips in', '--base', n.revision, '--why', 'a pushes first']);
    const o = applied(await replaceNode(b, { ledger: 'beat', node: n.node!, payload: text('b changes the first node'), base: n.revision, why: 'b writes', author: AUTHOR }));
    expect(existsSync(flag)).toBe(true);
    const aPush = git(bare, ['rev-parse', `${o.revision}^`]);
    expect(aPush).not.toBe(n.revision);
    expect(git(bare, ['log', '-1', '--format=%s', aPush])).toMatch(/^insert \S+: a pushes first$/);
    expect(o.diff.map((d) => d.change)).toEqual(['inserted']);
    expect(remoteRefs(bare, 'beat')).toEqual({ main: o.revision, canvas: o.revision });
    expect((await verifyWorkspace(b)).violations).toEqual([]);
  });

  it("on the same node: a conflict with the diff, and the remote keeps the other machine's edit", async () => {
    const bare = bareRemote(tempDir('canvas-remote-'));
    const a = await machine(bare);
    const b = await machine(bare);
    const made = applied(await createCanvas(a, { ledger: 'clash', why: 'two machines, one node', author: AUTHOR }));
    const n = applied(await insertNode(a, { ledger: 'clash', into: 'root', payload: text('the node'), base: made.revision, why: 'seed', author: AUTHOR }));
    beatNextPush(b, a, ['replace', 'clash', n.node!, '--text', 'a got there first', '--base', n.revision, '--why', 'a pushes first']);
    const c = (await replaceNode(b, { ledger: 'clash', node: n.node!, payload: text('b too'), base: n.revision, why: 'b writes', author: AUTHOR })) as Conflict;
    expect(c.outcome).toBe('conflict');
    expect(c.code).toBe('STALE_BASE');
    expect(c.node).toBe(n.node);
    expect(c.diff).toHaveLength(1);
    expect(c.diff[0]!.commits.map((e) => e.reason)).toEqual(['a pushes first']);
    expect(git(bare, ['log', '-1', '--format=%s', 'refs/heads/main'])).toBe(`replace ${n.node}: a pushes first`);
    // Nothing of b's moved: its main is the remote's, as fetched for the re-check.
    expect(git(b.repo, ['rev-parse', 'refs/heads/main'])).toBe(git(bare, ['rev-parse', 'refs/heads/main']));
  });

  it('beaten in every round: REMOTE_BUSY after the bounded rounds, every edit of the other machine kept', async () => {
    const bare = bareRemote(tempDir('canvas-remote-'));
    const a = await machine(bare);
    const b = await machine(bare);
    const made = applied(await createCanvas(a, { ledger: 'busy', why: 'a hot canvas', author: AUTHOR }));
    beatNextPush(b, a, ['insert', 'busy', '--into', 'root', '--text', 'a again', '--base', made.revision, '--why', 'a pushes first'], true);
    process.env.CANVAS_PUSH_ROUNDS = '3';
    let e: CanvasError;
    try {
      e = await canvasErrorOf(insertNode(b, { ledger: 'busy', into: 'root', payload: text('b never lands'), base: made.revision, why: 'b writes', author: AUTHOR }));
    } finally {
      delete process.env.CANVAS_PUSH_ROUNDS;
    }
    expect(e.code).toBe('REMOTE_BUSY');
    expect(e.data.rounds).toBe(3);
    const subjects = git(bare, ['log', '--format=%s', 'refs/heads/main']).split('\n');
    expect(subjects.filter((s) => s.endsWith(': a pushes first'))).toHaveLength(3);
    expect(subjects.some((s) => s.endsWith(': b writes'))).toBe(false);
  });

  it("git's ref locks a killed writer or fetch left behind: the next sync and the next write clear them and follow the remote", async () => {
    const bare = bareRemote(tempDir('canvas-remote-'));
    const a = await machine(bare);
    const b = await machine(bare);
    const made = applied(await createCanvas(a, { ledger: 'locks', why: 'a canvas two machines write', author: AUTHOR }));
    await syncWorkspace(b);
    // b's edit lands on the remote; a was killed after such a push, moving its own refs (main.lock),
    // and during a fetch, moving the remote's refs (a tracking ref's lock).
    const pushed = applied(await insertNode(b, { ledger: 'locks', into: 'root', payload: text('pushed'), base: made.revision, why: 'b pushes', author: AUTHOR }));
    for (const lock of ['refs/heads/main.lock', 'refs/remotes/shared/heads/main.lock', 'refs/canvas/locks.lock']) writeFileSync(join(a.repo, '.git', lock), `${made.revision}\n`);
    expect(await syncWorkspace(a)).toEqual({ url: bare, main: pushed.revision, followed: true, pushed: false });
    expect(git(a.repo, ['rev-parse', 'refs/heads/main', 'refs/canvas/locks'])).toBe(`${pushed.revision}\n${pushed.revision}`);
    // The same through a write: locks left again, b pushes again, a's write follows and lands on top.
    const again = applied(await insertNode(b, { ledger: 'locks', into: 'root', payload: text('again'), base: pushed.revision, why: 'b pushes again', author: AUTHOR }));
    for (const lock of ['refs/heads/main.lock', 'refs/remotes/shared/canvas/locks.lock']) writeFileSync(join(a.repo, '.git', lock), `${pushed.revision}\n`);
    const o = applied(await insertNode(a, { ledger: 'locks', into: 'root', payload: text('a writes'), base: again.revision, why: 'a writes', author: AUTHOR }));
    expect(remoteRefs(bare, 'locks')).toEqual({ main: o.revision, canvas: o.revision });
    expect(git(bare, ['rev-parse', `${o.revision}^`])).toBe(again.revision);
    expect((await verifyWorkspace(a)).violations).toEqual([]);
  });

  it('a grant (a write beside the document) goes through the same push', async () => {
    const bare = bareRemote(tempDir('canvas-remote-'));
    const a = await machine(bare);
    applied(await createCanvas(a, { ledger: 'grants', why: 'access over a remote', author: AUTHOR }));
    const g = applied(await grantRole(a, { ledger: 'grants', who: 'ana', role: 'editor', why: 'ana joins', author: AUTHOR }));
    expect(remoteRefs(bare, 'grants')).toEqual({ main: g.revision, canvas: g.revision });
  });
});
