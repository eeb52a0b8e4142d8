import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// canvas remote set|show, canvas sync, canvas read --fetch (docs/remote.md), against a path remote.

const git = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

function bare(): string {
  const dir = join(tempDir('canvas-remote-cli-'), 'shared.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir]);
  return dir;
}

describe('canvas remote, canvas sync and canvas read --fetch', () => {
  it('set, show and sync; another machine reads the remote with --fetch', async () => {
    const url = bare();
    const a = tempWorkspace();
    const b = tempWorkspace();
    expect((await runMain(a, ['remote', 'set', url])).stdout).toBe(`remote: ${url}\nnext: canvas sync\n`);
    expect((await runMain(b, ['remote', 'set', url, '--json'])).stdout).toBe(`${JSON.stringify({ url })}\n`);
    expect((await runMain(a, ['create', 'plan', '--why', 'the plan'])).code).toBe(0);
    const read = await runMain(a, ['read', 'plan']);
    const ins = await runMain(a, ['insert', 'plan', '--into', 'root', '--text', 'step one', '--base', baseOf(read.stdout), '--why', 'the first step']);
    expect(ins.code, ins.stderr).toBe(0);
    const main = git(url, ['rev-parse', 'refs/heads/main']);
    // b has the remote set but has fetched nothing: a plain read finds no canvas, --fetch does.
    expect((await runMain(b, ['read', 'plan'])).code).toBe(2);
    const fetched = await runMain(b, ['read', 'plan', '--fetch']);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(baseOf(fetched.stdout)).toBe(main);
    expect(fetched.stdout).toContain('step one');
    expect(readFileSync(join(b.repo, 'plan.xml'), 'utf8')).toBe(readFileSync(join(a.repo, 'plan.xml'), 'utf8'));
    const show = JSON.parse((await runMain(b, ['remote', 'show', '--json'])).stdout);
    expect(show).toEqual({ url, main });
    expect(JSON.parse((await runMain(b, ['sync', '--json'])).stdout)).toEqual({ url, main, followed: false, pushed: false });
    expect((await runMain(b, ['verify'])).code).toBe(0);
  });

  it('a workspace that wrote alone pushes its history on the first sync', async () => {
    const url = bare();
    const a = tempWorkspace();
    expect((await runMain(a, ['create', 'alone', '--why', 'written before the remote'])).code).toBe(0);
    expect((await runMain(a, ['remote', 'set', url])).code).toBe(0);
    const sync = JSON.parse((await runMain(a, ['sync', '--json'])).stdout);
    expect(sync.pushed).toBe(true);
    expect(git(url, ['rev-parse', 'refs/heads/main', 'refs/canvas/alone'])).toBe(`${sync.main}\n${sync.main}`);
  });

  it('refuses REMOTE_DIVERGED when this main and the remote main hold different histories, with nothing moved either side', async () => {
    const url = bare();
    const a = tempWorkspace();
    expect((await runMain(a, ['create', 'first', '--why', 'one machine'])).code).toBe(0);
    expect((await runMain(a, ['remote', 'set', url])).code).toBe(0);
    expect((await runMain(a, ['sync'])).code).toBe(0);
    const b = tempWorkspace();
    expect((await runMain(b, ['create', 'other', '--why', 'another history, never from the remote'])).code).toBe(0);
    expect((await runMain(b, ['remote', 'set', url])).code).toBe(0);
    const state = repoState(b);
    const remoteMain = git(url, ['rev-parse', 'refs/heads/main']);
    const r = await runMain(b, ['sync', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('REMOTE_DIVERGED');
    expect(
      repoState(b)
        .refs.split('\n')
        .filter((l) => !l.includes('refs/remotes/')),
    ).toEqual(state.refs.split('\n').filter((l) => !l.includes('refs/remotes/')));
    expect(repoState(b).files).toEqual(state.files);
    expect(git(url, ['rev-parse', 'refs/heads/main'])).toBe(remoteMain);
  });

  it('a fast-forward a crash cut short (main moved, the files not) is finished by the next sync', async () => {
    const url = bare();
    const a = tempWorkspace();
    const b = tempWorkspace();
    await runMain(a, ['remote', 'set', url]);
    await runMain(b, ['remote', 'set', url]);
    await runMain(a, ['create', 'cut', '--why', 'a canvas']);
    expect((await runMain(b, ['sync'])).code).toBe(0);
    const from = git(b.repo, ['rev-parse', 'refs/heads/main']);
    const read = await runMain(a, ['read', 'cut']);
    await runMain(a, ['insert', 'cut', '--into', 'root', '--text', 'later', '--base', baseOf(read.stdout), '--why', 'a later edit']);
    const to = git(url, ['rev-parse', 'refs/heads/main']);
    // The state a crash after the ref step leaves: the journal, main and the canvas ref at `to`,
    // the working file still at `from`.
    git(b.repo, ['fetch', '-q', 'shared']);
    writeFileSync(join(b.repo, '.git', 'canvas-follow'), `${from} ${to}\n`);
    git(b.repo, ['update-ref', 'refs/heads/main', to, from]);
    git(b.repo, ['update-ref', 'refs/canvas/cut', to, from]);
    expect(readFileSync(join(b.repo, 'cut.xml'), 'utf8')).not.toContain('later');
    const sync = await runMain(b, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(join(b.repo, '.git', 'canvas-follow'))).toBe(false);
    expect(readFileSync(join(b.repo, 'cut.xml'), 'utf8')).toBe(readFileSync(join(a.repo, 'cut.xml'), 'utf8'));
    expect((await runMain(b, ['verify'])).code).toBe(0);
  });

  it('a follow says nothing of canvas refs it moved as part of following; a ref that was wrong before is said to be rebuilt', async () => {
    const url = bare();
    const a = tempWorkspace();
    const b = tempWorkspace();
    await runMain(a, ['remote', 'set', url]);
    await runMain(b, ['remote', 'set', url]);
    expect((await runMain(a, ['create', 'one', '--why', 'a canvas'])).code).toBe(0);
    const first = await runMain(b, ['sync']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const read = await runMain(a, ['read', 'one']);
    expect((await runMain(a, ['insert', 'one', '--into', 'root', '--text', 'later', '--base', baseOf(read.stdout), '--why', 'a later edit'])).code).toBe(0);
    // A write that follows the remote first, and a sync that follows it: neither is a repair.
    const write = await runMain(b, ['create', 'two', '--why', 'written after following']);
    expect(write.code, write.stderr).toBe(0);
    expect(write.stderr).toBe('');
    expect((await runMain(a, ['read', 'one', '--fetch'])).stderr).toBe('');
    // A canvas ref removed by hand on b is a repair when the next follow rebuilds it.
    git(b.repo, ['update-ref', '-d', 'refs/canvas/one']);
    const again = await runMain(a, ['read', 'one']);
    expect((await runMain(a, ['insert', 'one', '--into', 'root', '--text', 'last', '--base', baseOf(again.stdout), '--why', 'the last edit'])).code).toBe(0);
    const repaired = await runMain(b, ['sync']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toBe('canvas: rebuilt refs/canvas/* from main for 1 canvas (one): 1 missing\n');
    expect(git(b.repo, ['rev-parse', 'refs/canvas/one'])).toBe(git(url, ['rev-parse', 'refs/canvas/one']));
  });

  it('remote unset (or remove) drops the remote and its fetched refs, moves nothing else, and is NO_REMOTE when none is set', async () => {
    const url = bare();
    const a = tempWorkspace();
    expect((await runMain(a, ['remote', 'set', url])).code).toBe(0);
    expect((await runMain(a, ['create', 'kept', '--why', 'pushed before the unset'])).code).toBe(0);
    const pushed = git(url, ['rev-parse', 'refs/heads/main']);
    const local = (state: ReturnType<typeof repoState>) => ({ ...state, refs: state.refs.split('\n').filter((l) => !l.includes('refs/remotes/')) });
    const before = repoState(a);
    const unset = await runMain(a, ['remote', 'unset', '--json']);
    expect(unset.code, unset.stderr).toBe(0);
    expect(JSON.parse(unset.stdout)).toEqual({ url });
    expect(readFileSync(join(a.repo, '.git', 'config'), 'utf8')).not.toContain('[remote "shared"]');
    expect(git(a.repo, ['for-each-ref', 'refs/remotes/'])).toBe('');
    expect(local(repoState(a))).toEqual(local(before));
    // Writes are local from then on: the remote stays where it was.
    const read = await runMain(a, ['read', 'kept']);
    expect((await runMain(a, ['insert', 'kept', '--into', 'root', '--text', 'local', '--base', baseOf(read.stdout), '--why', 'a local edit'])).code).toBe(0);
    expect(git(url, ['rev-parse', 'refs/heads/main'])).toBe(pushed);
    // Nothing to unset: NO_REMOTE, exit 2, the config as it was; `remove` is the same action.
    const config = readFileSync(join(a.repo, '.git', 'config'), 'utf8');
    const state = repoState(a);
    for (const action of ['unset', 'remove']) {
      const again = await runMain(a, ['remote', action, '--json']);
      expect(again.code, action).toBe(2);
      expect(JSON.parse(again.stdout).error).toMatchObject({ code: 'NO_REMOTE', hint: expect.stringContaining('nothing to unset') });
    }
    expect(readFileSync(join(a.repo, '.git', 'config'), 'utf8')).toBe(config);
    expect(repoState(a)).toEqual(state);
    expect((await runMain(a, ['remote', 'set', url])).code).toBe(0);
    const removed = await runMain(a, ['remote', 'remove']);
    expect(removed.stdout).toBe(`unset the remote ${url}: writes here are local only now\n`);
    const extra = await runMain(a, ['remote', 'unset', url, '--json']);
    expect(JSON.parse(extra.stdout).error.code).toBe('USAGE');
    // A workspace with no repository yet has no remote either, and none is made.
    const b = tempWorkspace();
    expect(JSON.parse((await runMain(b, ['remote', 'unset', '--json'])).stdout).error.code).toBe('NO_REMOTE');
    expect(existsSync(b.repo)).toBe(false);
  });

  it('a path that is not a bare git repository is REMOTE_NOT_BARE (exit 2), one that does not exist BAD_REMOTE, the config untouched each time', async () => {
    const a = tempWorkspace();
    const plain = tempDir('canvas-remote-plain-');
    const checkout = tempDir('canvas-remote-checkout-');
    execFileSync('git', ['init', '-q', '-b', 'main', checkout]);
    const refuse = async (url: string) => {
      const r = await runMain(a, ['remote', 'set', url, '--json']);
      expect(r.code, url).toBe(2);
      return JSON.parse(r.stdout).error as { code: string; message: string; hint: string };
    };
    // Before any repository: nothing is made.
    const notGit = await refuse(plain);
    expect(notGit.code).toBe('REMOTE_NOT_BARE');
    expect(notGit.message).toContain(`${plain} is not a git repository`);
    expect(notGit.hint).toContain(`git init --bare ${plain}`);
    expect(existsSync(a.repo)).toBe(false);
    // With a repository: its config and refs stay as they were after each refusal.
    expect((await runMain(a, ['create', 'here', '--why', 'a repository'])).code).toBe(0);
    const state = repoState(a);
    const config = readFileSync(join(a.repo, '.git', 'config'), 'utf8');
    expect((await refuse(plain)).code).toBe('REMOTE_NOT_BARE');
    const worktree = await refuse(checkout);
    expect(worktree.code).toBe('REMOTE_NOT_BARE');
    expect(worktree.message).toContain('working tree');
    expect(worktree.hint).toContain(`git clone --bare ${checkout}`);
    // The .git directory of a checkout is not bare either.
    expect((await refuse(join(checkout, '.git'))).code).toBe('REMOTE_NOT_BARE');
    // A file:// URL names the same directory: the same refusal, not an unreachable remote.
    const byUrl = await refuse(pathToFileURL(plain).href);
    expect(byUrl.code).toBe('REMOTE_NOT_BARE');
    expect(byUrl.message).toContain(`${plain} is not a git repository`);
    expect((await refuse(pathToFileURL(checkout).href)).code).toBe('REMOTE_NOT_BARE');
    // git reads a file:// URL as the path after its host, whatever the host, with %XX decoded
    // (%2F a slash too): the same directory, the same refusal.
    const elsewhere = await refuse(pathToFileURL(checkout).href.replace('file://', 'file://elsewhere'));
    expect(elsewhere.code).toBe('REMOTE_NOT_BARE');
    expect(elsewhere.message).toContain(`${checkout} is a git repository with a working tree`);
    expect((await refuse(pathToFileURL(checkout).href.replace(/\/(?=[^/]*$)/, '%2F'))).code).toBe('REMOTE_NOT_BARE');
    expect((await refuse(pathToFileURL(plain).href.replace('file://', 'file://[::1]'))).code).toBe('REMOTE_NOT_BARE');
    const missing = await refuse(join(plain, 'nothing-here.git'));
    expect(missing.code).toBe('BAD_REMOTE');
    expect(missing.hint).toContain('git init --bare');
    expect(readFileSync(join(a.repo, '.git', 'config'), 'utf8')).toBe(config);
    expect(repoState(a)).toEqual(state);
    expect(readdirSync(plain)).toEqual([]);
    // A file:// URL of a bare repository is set as given.
    const shared = pathToFileURL(bare()).href;
    expect((await runMain(a, ['remote', 'set', shared, '--json'])).stdout).toBe(`${JSON.stringify({ url: shared })}\n`);
  });

  it('refusals: BAD_REMOTE and NO_REMOTE, with nothing written; a remote that does not answer is not set', async () => {
    const a = tempWorkspace();
    const bad = await runMain(a, ['remote', 'set', 'no such place', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('BAD_REMOTE');
    expect(existsSync(a.repo)).toBe(false);
    for (const args of [['sync'], ['remote', 'show'], ['read', 'x', '--fetch']]) {
      const r = await runMain(a, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.code, args.join(' ')).toBe('NO_REMOTE');
    }
    const gone = await runMain(a, ['remote', 'set', 'git://127.0.0.1:9/nothing.git', '--json']);
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stdout).error.code).toBe('REMOTE_UNREACHABLE');
    expect(existsSync(a.repo)).toBe(false);
    // With a repository there, a refused set leaves its config as it was.
    expect((await runMain(a, ['create', 'here', '--why', 'a repository'])).code).toBe(0);
    const state = repoState(a);
    const config = readFileSync(join(a.repo, '.git', 'config'), 'utf8');
    expect((await runMain(a, ['remote', 'set', 'git://127.0.0.1:9/nothing.git'])).code).toBe(1);
    expect(readFileSync(join(a.repo, '.git', 'config'), 'utf8')).toBe(config);
    expect(repoState(a)).toEqual(state);
    expect((await runMain(a, ['remote', 'bogus'])).code).toBe(2);
    // A set without its URL says what is missing, not that "set" is no action.
    const bare = await runMain(a, ['remote', 'set', '--json']);
    expect(bare.code).toBe(2);
    expect(JSON.parse(bare.stdout).error).toMatchObject({ code: 'USAGE', message: 'canvas remote set needs the URL or path of the shared remote' });
    expect(repoState(a)).toEqual(state);
  });
});
