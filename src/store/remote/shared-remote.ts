import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { maskCredentials } from '../../model/mask-credentials.js';
import { runGit } from '../git/git.js';

/** The git remote, in the repository's own config, a workspace shares its refs through (docs/remote.md, "The remote"). */
export const REMOTE = 'shared';

/** Where a fetch keeps the remote's refs: `refs/remotes/shared/main` and `refs/remotes/shared/canvas/<ledger>`. */
export const TRACKING = `refs/remotes/${REMOTE}`;

/** A URL git speaks: a scheme it knows, or scp-like `user@host:path`. */
const GIT_URL = /^(?:(?:git|ssh|https?|file):\/\/\S+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:\S+)$/;

/**
 * What git should be given for a remote named on the command line (docs/remote.md, "The
 * remote"): a URL git speaks as it is, an existing directory as its absolute path (git runs in
 * the workspace's repository or a private one, where a relative path would mean another place),
 * or null for neither.
 */
export function gitTarget(url: string): string | null {
  if (GIT_URL.test(url)) return url;
  const abs = resolve(url);
  return url !== '' && existsSync(abs) && statSync(abs).isDirectory() ? abs : null;
}

/**
 * The shared remote's URL as it may be shown, its credentials masked (docs/remote.md,
 * "Credentials"), or null when the workspace has none (docs/remote.md, "The remote"). git is
 * given the remote by its name, never this URL. A repository without the remote costs one read
 * of `.git/config` and no git process.
 *
 * @param repo - the repository's work tree (`state/canvas`)
 */
export async function remoteUrl(repo: string): Promise<string | null> {
  let config: string;
  try {
    config = readFileSync(join(repo, '.git', 'config'), 'utf8');
  } catch {
    return null;
  }
  if (!config.includes(`[remote "${REMOTE}"]`)) return null;
  const { stdout, code } = await runGit(repo, ['config', '--get', `remote.${REMOTE}.url`], { allowFail: true });
  return code === 0 && stdout.trim() !== '' ? maskCredentials(stdout.trim()) : null;
}
