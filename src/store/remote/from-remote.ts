import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { maskCredentials } from '../../model/mask-credentials.js';
import { ensureRepo } from '../repo/ensure-repo.js';
import { runGit } from '../git/git.js';
import { rebuildCanvasRefs } from '../repo/rebuild-canvas-refs.js';
import { sweepAbandoned } from '../files/remove-if-abandoned.js';
import { withRepoLock } from '../repo/repo-lock.js';
import { resolveWorkspace, type Workspace } from '../repo/workspace.js';
import { remoteFailed } from './remote-error.js';
import { gitTarget } from './shared-remote.js';

/** The private copy's folder: `canvas-from-<pid>-XXXXXX` in the system's temporary directory. */
const COPY = /^canvas-from-([1-9]\d{0,6})-[A-Za-z0-9]{6}$/;

/** A workspace of its own holding a remote's refs, for a build with no workspace; removed by `dispose`. */
export interface RemoteCopy {
  ws: Workspace;
  /** The main the copy holds (the remote's, or the `at` asked for). */
  main: string;
  dispose(): void;
}

/**
 * Copy a remote's `main` and `refs/canvas/*` into a fresh private workspace (docs/remote.md, "CI
 * from the remote"), for `canvas build --from`: one `git fetch`, no working files (the build
 * reads the repository only). With `at`, main is set back to that commit of the remote's main
 * and every canvas ref is rebuilt from it.
 *
 * @param given - a git URL or the path of a repository (bare or not; relative to the working directory)
 * @param at - a commit of the remote's main, 7 to 40 hex characters
 * @throws CanvasError `REMOTE_UNREACHABLE`; `USAGE` when `at` is not a commit of the remote's
 *   main; `NO_CANVAS_FOUND` when the remote has no main
 */
export async function copyRemote(given: string, at?: string): Promise<RemoteCopy> {
  // A relative path means the caller's directory, not the private repository git runs in.
  const url = gitTarget(given) ?? given;
  // The copies of builds killed before they removed theirs (docs/remote.md, "CI from the remote").
  sweepAbandoned(tmpdir(), COPY, true);
  const root = mkdtempSync(join(tmpdir(), `canvas-from-${process.pid}-`));
  const dispose = () => rmSync(root, { recursive: true, force: true });
  try {
    const ws = resolveWorkspace({ workspace: root });
    await ensureRepo(ws);
    const fetched = await runGit(ws.repo, ['fetch', '--quiet', '--no-tags', '--update-head-ok', url, '+refs/heads/main:refs/heads/main', '+refs/canvas/*:refs/canvas/*'], {
      allowFail: true,
    });
    if (fetched.code !== 0) {
      if (/couldn't find remote ref refs\/heads\/main/.test(fetched.stderr)) {
        const shown = maskCredentials(url);
        throw new CanvasError('NO_CANVAS_FOUND', `the remote ${shown} has no main: no canvas was ever pushed there`, 'check the URL; a first write pushes main', { url: shown });
      }
      throw remoteFailed('fetch', url, fetched.stderr, false, {
        done: 'nothing was built',
        again: 'build again',
        where: 'that --from names a git repository (a path or a URL) this machine can reach',
      });
    }
    const { stdout } = await runGit(ws.repo, ['rev-parse', 'refs/heads/main']);
    let main = stdout.trim();
    if (at !== undefined) {
      const sha = /^[0-9a-f]{7,40}$/.test(at) ? (await runGit(ws.repo, ['rev-parse', '--verify', '--quiet', `${at}^{commit}`], { allowFail: true })).stdout.trim() : '';
      const onMain = sha !== '' && (await runGit(ws.repo, ['merge-base', '--is-ancestor', sha, main], { allowFail: true })).code === 0;
      if (!onMain) {
        const shown = maskCredentials(url);
        throw new CanvasError('USAGE', `--at ${at} is not a commit of the main of ${shown}`, 'pass a sha from `git log main` of the remote (7 to 40 hex characters)', { at, url: shown });
      }
      await withRepoLock(join(ws.repo, '.git'), async () => {
        await runGit(ws.repo, ['update-ref', 'refs/heads/main', sha, main]);
        // The refs are the remote's now: dropped, then rebuilt from main as it stood at `at` (all
        // of them on purpose, none a repair).
        const refs = await runGit(ws.repo, ['for-each-ref', '--format=delete %(refname)', 'refs/canvas/']);
        await runGit(ws.repo, ['update-ref', '--stdin'], { input: refs.stdout });
        await rebuildCanvasRefs(ws, null);
      });
      main = sha;
    }
    return { ws, main, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}
