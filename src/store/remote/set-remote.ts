import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { ensureRepo } from '../ensure-repo.js';
import { runGit } from '../git/git.js';
import { withRepoLock } from '../repo-lock.js';
import type { Workspace } from '../workspace.js';
import { remoteFailed } from './remote-error.js';
import { gitTarget, REMOTE, remoteUrl, TRACKING } from './shared-remote.js';

/** The workspace's shared remote (`canvas remote show`). */
export interface RemoteReport {
  url: string;
  /** The remote's main as last fetched or pushed, or null before the first fetch (or while empty). */
  main: string | null;
}

/**
 * Set the workspace's shared remote (docs/remote.md, "The remote"): the git remote `shared` in the
 * repository's own config (made now when there is none), fetching `main` and `refs/canvas/*`.
 * The remote is asked for its refs once (`git ls-remote`), so a URL that does not answer is
 * refused with nothing set and nothing made. Nothing is fetched or pushed: the next write or `canvas sync` does.
 *
 * @param url - a git URL, or a path to a repository (made absolute)
 * @returns the URL as set
 * @throws CanvasError `BAD_REMOTE`, `REMOTE_UNREACHABLE`
 */
export async function setRemote(ws: Workspace, url: string): Promise<string> {
  const target = remoteTarget(url);
  const probe = await runGit(ws.root, ['ls-remote', '--heads', target], { allowFail: true });
  if (probe.code !== 0) throw remoteFailed('fetch', target, probe.stderr, false);
  await ensureRepo(ws);
  await withRepoLock(join(ws.repo, '.git'), async () => {
    await runGit(ws.repo, ['config', '--unset-all', `remote.${REMOTE}.fetch`], { allowFail: true });
    await runGit(ws.repo, ['config', `remote.${REMOTE}.url`, target]);
    await runGit(ws.repo, ['config', '--add', `remote.${REMOTE}.fetch`, `+refs/heads/*:${TRACKING}/heads/*`]);
    await runGit(ws.repo, ['config', '--add', `remote.${REMOTE}.fetch`, `+refs/canvas/*:${TRACKING}/canvas/*`]);
  });
  return target;
}

/**
 * The workspace's shared remote and the remote's main as this repository last saw it.
 *
 * @throws CanvasError `NO_REMOTE`
 */
export async function showRemote(ws: Workspace): Promise<RemoteReport> {
  const url = existsSync(join(ws.repo, '.git')) ? await remoteUrl(ws.repo) : null;
  if (url === null) throw noRemote(ws);
  const { stdout } = await runGit(ws.repo, ['rev-parse', '--verify', '--quiet', `${TRACKING}/heads/main`], { allowFail: true });
  return { url, main: stdout.trim() || null };
}

/** The error for a command that needs a shared remote in a workspace without one. */
export function noRemote(ws: Workspace): CanvasError {
  return new CanvasError('NO_REMOTE', `the workspace ${ws.root} has no shared remote`, 'set one: canvas remote set <url>', { workspace: ws.root });
}

/** The URL to store: a git URL as given, a directory as its absolute path. */
function remoteTarget(url: string): string {
  const target = gitTarget(url);
  if (target !== null) return target;
  throw new CanvasError(
    'BAD_REMOTE',
    `"${url}" is not a git remote: neither a URL git speaks (git://, ssh://, http(s)://, file://, user@host:path) nor an existing directory`,
    'pass the URL of the shared repository, or the path of a bare repository (git init --bare DIR)',
    { url },
  );
}
