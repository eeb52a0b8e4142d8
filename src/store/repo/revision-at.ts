import { runGit } from '../git/git.js';
import type { RepoReader } from './repo-reader.js';

/**
 * A canvas's own revision as of a commit on main (docs/store.md, "Staleness"): its latest commit
 * at or before `at`, which is what `Canvas-Base:` names for `read --at` and what a write may then
 * declare as its base. `at` itself is printed only when it is that commit.
 *
 * When `at` is a commit of this canvas it is the revision. Else one `git log -1` finds the newest
 * commit whose message has the canvas's `Canvas-Ledger:` line;
 * the commit is then parsed and its trailer compared for equality, so a message that merely
 * quotes the line is passed over and the search goes on from its parent.
 *
 * @param reader - an open reader of the repository
 * @param ledger - the ledger id (already checked)
 * @param at - a full commit sha
 * @returns the revision (full sha), or null when the canvas did not exist at `at`
 */
export async function revisionAt(reader: RepoReader, ledger: string, at: string): Promise<string | null> {
  // Most often `at` is a revision of this canvas (a page's or a writer's base): then it is the
  // answer, read from the commit itself, with no `git log` process.
  if ((await reader.commit(at))?.ledger === ledger) return at;
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
