import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { applyEdit } from '../../../src/store/write/apply-edit.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { IDLE_MS } from '../../../src/store/git/git-handles.js';
import { RefUpdater } from '../../../src/store/git/ref-updater.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

const ZERO = '0'.repeat(40);

afterEach(() => {
  vi.useRealTimers();
});

/** A canvas, and the repository's updater ended so the next one starts under the test's clock. */
async function canvas(): Promise<{ ws: Workspace; revision: string }> {
  const ws = tempWorkspace();
  const created = await createCanvas(ws, { ledger: 'k', why: 'a canvas', author: AUTHOR });
  if (created.outcome !== 'applied') throw new Error(JSON.stringify(created));
  RefUpdater.shared(ws.repo).close();
  return { ws, revision: created.revision };
}

function git(ws: Workspace, args: string[]): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8' }).trim();
}

async function thrown(p: Promise<unknown>): Promise<CanvasError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(e instanceof CanvasError)) throw new Error(`expected a CanvasError, got ${String(e)}`);
  return e;
}

describe('RefUpdater: the idle close never meets a transaction', () => {
  it('an updater taken just before its idle timer fired is not handed the transaction; it commits', async () => {
    const { ws, revision } = await canvas();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const updater = RefUpdater.shared(ws.repo);
    vi.advanceTimersByTime(IDLE_MS);
    expect(updater.helper.state).not.toBe('open');
    expect(RefUpdater.shared(ws.repo)).not.toBe(updater);
    const result = await updater.transaction([`update refs/heads/side ${revision} ${ZERO}`]);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(git(ws, ['rev-parse', 'refs/heads/side'])).toBe(revision);
  });

  it('a held updater outlives many idle periods, and the one after it was released is closed', async () => {
    const { ws, revision } = await canvas();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const updater = RefUpdater.shared(ws.repo);
    const release = updater.hold();
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(updater.helper.state).toBe('open');
    expect(RefUpdater.shared(ws.repo)).toBe(updater);
    expect(await updater.transaction([`update refs/heads/side ${revision} ${ZERO}`])).toEqual({ code: 0, stderr: '' });
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(updater.helper.state).toBe('open');
    release();
    release();
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(updater.helper.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(updater.helper.state).not.toBe('open');
  });

  it('a write whose updater goes idle while it holds the lock still applies (no REF_MOVED)', async () => {
    const { ws, revision } = await canvas();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The approval hook runs under the lock after the write took its updater: the idle period
    // passes right there, as it did for a write that took the updater just before the timer fired.
    const outcome = await applyEdit(
      ws,
      { op: 'insert', anchor: { into: 'root' }, payload: { text: 'written across the idle boundary' } },
      { ledger: 'k', base: revision, why: 'an edit across the idle period', author: AUTHOR },
      {
        approval: {
          proposal: 'p1',
          decide: async () => {
            vi.advanceTimersByTime(IDLE_MS * 3);
            return { file: 'proposals/k/p1.json', content: '{}\n', proposedBy: 'ann | by-hand', proposedWhy: 'ann asked for it' };
          },
        },
      },
    );
    expect(outcome.outcome).toBe('applied');
    expect(git(ws, ['rev-parse', 'refs/heads/main'])).toBe((outcome as { revision: string }).revision);
  });
});

describe('RefUpdater.move: REF_MOVED only when a ref moved', () => {
  it('both refs move together when they hold their old values', async () => {
    const { ws, revision } = await canvas();
    await RefUpdater.shared(ws.repo).move([
      { ref: 'refs/heads/a', next: revision, old: null },
      { ref: 'refs/heads/b', next: revision, old: null },
    ]);
    expect(git(ws, ['rev-parse', 'refs/heads/a', 'refs/heads/b']).split('\n')).toEqual([revision, revision]);
  });

  it('a ref moved by someone else is REF_MOVED naming it, its value and the expected one; nothing moves', async () => {
    const { ws, revision } = await canvas();
    const tree = git(ws, ['rev-parse', `${revision}^{tree}`]);
    const other = execFileSync('git', ['commit-tree', tree, '-m', 'outside'], {
      cwd: ws.repo,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x' },
    }).trim();
    git(ws, ['update-ref', 'refs/heads/b', other]);
    const e = await thrown(
      RefUpdater.shared(ws.repo).move([
        { ref: 'refs/heads/a', next: revision, old: null },
        { ref: 'refs/heads/b', next: revision, old: revision },
      ]),
    );
    expect(e.code).toBe('REF_MOVED');
    expect(e.data).toMatchObject({ ref: 'refs/heads/b', expected: revision, actual: other });
    expect(git(ws, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/a', 'refs/heads/b'])).toBe(`refs/heads/b ${other}`);
  });

  it('an updater that died is GIT_HELPER_FAILED with what git said, never REF_MOVED; no ref moves', async () => {
    const { ws, revision } = await canvas();
    const updater = RefUpdater.shared(ws.repo);
    // SIGKILL: git runs nothing more, so the transaction below is sent to a process that is gone.
    process.kill(updater.helper.pid!, 'SIGKILL');
    const e = await thrown(updater.move([{ ref: 'refs/heads/a', next: revision, old: null }]));
    expect(e.code).toBe('GIT_HELPER_FAILED');
    expect(e.data).toMatchObject({ helper: 'git update-ref --stdin', refs: ['refs/heads/a'] });
    expect(String(e.data.stderr)).toMatch(/SIGKILL/);
    expect(git(ws, ['for-each-ref', 'refs/heads/a'])).toBe('');
    // The next transaction runs in a fresh updater.
    expect(RefUpdater.shared(ws.repo)).not.toBe(updater);
    await RefUpdater.shared(ws.repo).move([{ ref: 'refs/heads/a', next: revision, old: null }]);
    expect(git(ws, ['rev-parse', 'refs/heads/a'])).toBe(revision);
  });

  it('a transaction git refuses while no ref moved (a ref lock taken outside) is GIT_HELPER_FAILED with git’s stderr', async () => {
    const { ws, revision } = await canvas();
    execFileSync('touch', [`${ws.repo}/.git/refs/heads/a.lock`]);
    const e = await thrown(RefUpdater.shared(ws.repo).move([{ ref: 'refs/heads/a', next: revision, old: null }]));
    expect(e.code).toBe('GIT_HELPER_FAILED');
    expect(String(e.data.stderr)).toMatch(/a\.lock/);
    expect(git(ws, ['for-each-ref', 'refs/heads/a'])).toBe('');
  });
});
