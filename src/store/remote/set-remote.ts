import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { maskCredentials } from '../../model/mask-credentials.js';
import { ensureRepo } from '../repo/ensure-repo.js';
import { runGit } from '../git/git.js';
import { withRepoLock } from '../repo/repo-lock.js';
import type { Workspace } from '../repo/workspace.js';
import { remoteFailed } from './remote-error.js';
import { gitTarget, REMOTE, remoteUrl, TRACKING } from './shared-remote.js';
import { repoExists } from '../files/permission-denied.js';

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
 * @returns the URL as set, its credentials masked (docs/remote.md, "Credentials")
 * @throws CanvasError `BAD_REMOTE`; `REMOTE_NOT_BARE` for a directory (a path or a `file://`
 *   URL) that is not a bare git repository; `REMOTE_UNREACHABLE`; `REMOTE_AUTH` (a credential
 *   missing or refused)
 */
export async function setRemote(ws: Workspace, url: string): Promise<string> {
  const target = remoteTarget(url);
  const dir = localDirectory(target);
  if (dir !== null) await checkBare(dir);
  const probe = await runGit(ws.root, ['ls-remote', '--heads', target], { allowFail: true });
  if (probe.code !== 0) {
    throw remoteFailed('fetch', target, probe.stderr, false, { done: 'nothing was set', again: 'set it again', where: 'the network and the URL (a path or a git URL)' });
  }
  await ensureRepo(ws);
  await withRepoLock(join(ws.repo, '.git'), async () => {
    await runGit(ws.repo, ['config', '--unset-all', `remote.${REMOTE}.fetch`], { allowFail: true });
    await runGit(ws.repo, ['config', `remote.${REMOTE}.url`, target]);
    await runGit(ws.repo, ['config', '--add', `remote.${REMOTE}.fetch`, `+refs/heads/*:${TRACKING}/heads/*`]);
    await runGit(ws.repo, ['config', '--add', `remote.${REMOTE}.fetch`, `+refs/canvas/*:${TRACKING}/canvas/*`]);
  });
  return maskCredentials(target);
}

/**
 * The workspace's shared remote and the remote's main as this repository last saw it.
 *
 * @throws CanvasError `NO_REMOTE`
 */
export async function showRemote(ws: Workspace): Promise<RemoteReport> {
  const url = repoExists(ws.repo) ? await remoteUrl(ws.repo) : null;
  if (url === null) throw noRemote(ws);
  const { stdout } = await runGit(ws.repo, ['rev-parse', '--verify', '--quiet', `${TRACKING}/heads/main`], { allowFail: true });
  return { url, main: stdout.trim() || null };
}

/**
 * Unset the workspace's shared remote (docs/remote.md, "The remote"): under the repository lock,
 * the git remote `shared` leaves the repository's config, and with it the remote's refs as last
 * fetched (`refs/remotes/shared/`). Nothing is fetched or pushed, no canvas, main or working file
 * moves, and the remote itself is left as it is; from then on writes are local only.
 *
 * @returns the URL the remote had
 * @throws CanvasError `NO_REMOTE` when none is set (nothing written), `LOCK_TIMEOUT`
 */
export async function unsetRemote(ws: Workspace): Promise<string> {
  const had = repoExists(ws.repo) ? await remoteUrl(ws.repo) : null;
  const nothing = 'nothing to unset: writes here are local only; to share them: canvas remote set <url>';
  if (had === null) throw noRemote(ws, nothing);
  return withRepoLock(join(ws.repo, '.git'), async () => {
    // Asked again under the lock: another process may have unset or changed it meanwhile.
    const url = await remoteUrl(ws.repo);
    if (url === null) throw noRemote(ws, nothing);
    await runGit(ws.repo, ['remote', 'remove', REMOTE]);
    return url;
  });
}

/** The error for a command that needs a shared remote in a workspace without one (`hint`: what to do instead). */
export function noRemote(ws: Workspace, hint = 'set one: canvas remote set <url>'): CanvasError {
  return new CanvasError('NO_REMOTE', `the workspace ${ws.root} has no shared remote`, hint, { workspace: ws.root });
}

/** The URL to store: a git URL as given, a directory as its absolute path. */
function remoteTarget(url: string): string {
  const target = gitTarget(url);
  if (target !== null) return target;
  throw new CanvasError(
    'BAD_REMOTE',
    `"${maskCredentials(url)}" is not a git remote: neither a URL git speaks (git://, ssh://, http(s)://, file://, user@host:path) nor an existing directory`,
    'pass the URL of the shared repository, or the path of a bare repository (git init --bare DIR)',
    { url: maskCredentials(url) },
  );
}

/**
 * The existing local directory a remote names: an absolute path, or a `file://` URL of one, read
 * as git reads it (the path after the host, whatever the host says, each `%XX` decoded, `%2F` a
 * slash too, `?` and `#` kept); null for any other URL, or for a `file://` URL of nothing there
 * (then `git ls-remote` says what is wrong). Not `fileURLToPath`: it refuses a host other than
 * localhost and an encoded slash, which git reads as the local directory all the same.
 */
function localDirectory(target: string): string | null {
  if (isAbsolute(target)) return target;
  if (!target.startsWith('file://')) return null;
  const rest = target.slice('file://'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const bytes = rest
    .slice(slash)
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part) => (/^%[0-9A-Fa-f]{2}$/.test(part) ? Buffer.from([Number.parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8')));
  const dir = Buffer.concat(bytes).toString('utf8');
  try {
    return statSync(dir).isDirectory() ? dir : null;
  } catch {
    // Nothing at that path.
    return null;
  }
}

/**
 * Refuse a directory that is not a bare git repository (docs/remote.md, "The remote"): one that
 * is no repository at all, or a checkout with a working tree, whose checked-out branch git
 * refuses to push to. Asked of git with the directory as the repository itself (`--git-dir`),
 * so a directory inside some other checkout is not taken for that checkout.
 *
 * @param dir - an existing directory, absolute
 * @throws CanvasError `REMOTE_NOT_BARE`
 */
async function checkBare(dir: string): Promise<void> {
  const worktree = existsSync(join(dir, '.git'));
  const asked = worktree ? null : await runGit(dir, ['--git-dir', dir, 'rev-parse', '--is-bare-repository'], { allowFail: true });
  if (asked?.code === 0 && asked.stdout.trim() === 'true') return;
  if (asked !== null && asked.code !== 0) {
    throw new CanvasError('REMOTE_NOT_BARE', `the directory ${dir} is not a git repository`, `make it a bare one, then set it again: git init --bare ${dir} && canvas remote set ${dir}`, {
      url: dir,
    });
  }
  const top = worktree ? dir : join(dir, '..');
  throw new CanvasError(
    'REMOTE_NOT_BARE',
    `the directory ${dir} is a git repository with a working tree, not a bare one: git refuses a push to its checked-out branch`,
    `share a bare copy of it instead: git clone --bare ${top} ${top}.git && canvas remote set ${top}.git`,
    { url: dir },
  );
}
