import { runGit } from '../git/git.js';
import { remoteFailed } from './remote-error.js';
import { REMOTE, TRACKING } from './shared-remote.js';

/** Where the refs of one repository stand: `main` and each canvas ref (null: no such ref). */
export interface RefState {
  main: string | null;
  /** `refs/canvas/<ledger>` by ledger id. */
  canvases: Map<string, string>;
}

/** The refs this repository holds: its own (`local`) and the remote's as last fetched or pushed (`remote`). */
export async function refStates(repo: string): Promise<{ local: RefState; remote: RefState }> {
  const { stdout } = await runGit(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main', 'refs/canvas/', `${TRACKING}/`]);
  const local: RefState = { main: null, canvases: new Map() };
  const remote: RefState = { main: null, canvases: new Map() };
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [name, sha] = line.split(' ') as [string, string];
    if (name === 'refs/heads/main') local.main = sha;
    else if (name.startsWith('refs/canvas/')) local.canvases.set(name.slice('refs/canvas/'.length), sha);
    else if (name === `${TRACKING}/heads/main`) remote.main = sha;
    else if (name.startsWith(`${TRACKING}/canvas/`)) remote.canvases.set(name.slice(`${TRACKING}/canvas/`.length), sha);
  }
  return { local, remote };
}

/**
 * Fetch the remote's `main` and canvas refs (docs/remote.md, "Writes"): one `git fetch` of the
 * remote's configured refspecs into `refs/remotes/shared/`, pruning refs it no longer has.
 *
 * @returns the remote's refs as fetched
 * @throws CanvasError `REMOTE_UNREACHABLE` with git's message when the fetch fails
 */
export async function fetchRemote(repo: string, url: string): Promise<RefState> {
  const r = await runGit(repo, ['fetch', '--quiet', '--no-tags', '--prune', '--no-write-fetch-head', REMOTE], { allowFail: true });
  if (r.code !== 0) throw remoteFailed('fetch', url, r.stderr, false);
  return (await refStates(repo)).remote;
}

/** Whether commit `a` is `b` or one of its ancestors (both present in the repository). */
export async function isAncestor(repo: string, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const r = await runGit(repo, ['merge-base', '--is-ancestor', a, b], { allowFail: true });
  return r.code === 0;
}
