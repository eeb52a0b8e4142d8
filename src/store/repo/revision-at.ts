import { runGit } from '../git/git.js';
import type { RepoReader } from './repo-reader.js';

/**
 * A canvas's own revision as of a commit on main (docs/store.md, "Staleness"): its latest commit
 * at or before `at`, which is what `Canvas-Base:` names for `read --at` and what a write may then
 * declare as its base. `at` itself is printed only when it is that commit.
 *
 * One `git log -1` finds the newest commit whose message has the canvas's `Canvas-Ledger:` line;
 * the commit is then parsed and its trailer compared for equality, so a message that merely
 * quotes the line is passed over and the search goes on from its parent.
 *
 * @param reader - an open reader of the repository
 * @param ledger - the ledger id (already checked)
 * @param at - a full commit sha
 * @returns the revision (full sha), or null when the canvas did not exist at `at`
 */
export async function revisionAt(reader: RepoReader, ledger: string, at: string): Promise<string | null> {
  const pattern = `^Canvas-Ledger: ${ledger.replace(/[.]/g, '\\.')}$`;
  let from: string | undefined = at;
  while (from !== undefined) {
    const { stdout } = await runGit(reader.ws.repo, ['log', '-1', '--first-parent', '--format=%H', '-E', `--grep=${pattern}`, from]);
    const sha = stdout.trim();
    if (sha === '') return null;
    const c = await reader.commit(sha);
    if (c?.ledger === ledger) return sha;
    from = c?.parents[0];
  }
  return null;
}
