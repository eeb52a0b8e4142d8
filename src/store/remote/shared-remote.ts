import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/git.js';

/** The git remote, in the repository's own config, a workspace shares its refs through (docs/remote.md, "The remote"). */
export const REMOTE = 'shared';

/** Where a fetch keeps the remote's refs: `refs/remotes/shared/main` and `refs/remotes/shared/canvas/<ledger>`. */
export const TRACKING = `refs/remotes/${REMOTE}`;

/**
 * The shared remote's URL, or null when the workspace has none (docs/remote.md, "The remote").
 * A repository without the remote costs one read of `.git/config` and no git process.
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
  return code === 0 && stdout.trim() !== '' ? stdout.trim() : null;
}
