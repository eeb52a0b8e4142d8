import { CanvasError } from '../../model/canvas-error.js';
import { type CanvasCommit, commitText, parseCommit } from './canvas-commit.js';
import { runGit } from '../git/git.js';
import type { RepoReader } from './repo-reader.js';

/**
 * Resolve a caller's base (7 to 40 hex characters) to a full commit sha.
 *
 * @param ledger - the canvas written or read, named in the hint's `canvas read` (docs/errors.md)
 * @throws CanvasError `UNKNOWN_BASE` when it is malformed, ambiguous or not a commit
 */
export async function resolveBase(reader: RepoReader, base: string, flag: string, ledger: string): Promise<string> {
  if (!/^[0-9a-f]{7,40}$/.test(base)) {
    throw new CanvasError('UNKNOWN_BASE', `${flag} ${base} is not a commit sha (7 to 40 hex characters)`, `pass the sha from the Canvas-Base: line of \`canvas read ${ledger}\``, {
      base,
    });
  }
  const found = await reader.resolve(`${base}^{commit}`);
  if (!found) {
    throw new CanvasError('UNKNOWN_BASE', `${flag} ${base} is not a commit of this workspace (unknown or ambiguous)`, `run \`canvas read ${ledger}\` and pass its Canvas-Base: sha`, { base });
  }
  return found.sha;
}

/** How far back a write walks main through its open reader before asking `git log` instead. */
const WALK_LIMIT = 64;

/**
 * The commits on main after `base`, oldest first, checking that base is an ancestor of main
 * (main is linear: every store commit has one parent). The walk is bounded by how stale the base
 * is, not by the size of the repository: with a reader, up to 64 commits are read through its
 * open `git cat-file --batch` (no new process); a staler base is listed by one `git log`.
 *
 * @param repo - the repository
 * @param base - a full sha
 * @param main - main's full sha
 * @param flag - how to name the base in errors
 * @param ledger - the canvas written, named in the hint's `canvas read`
 * @param reader - an open reader of the repository (optional)
 * @returns the commits after base
 * @throws CanvasError `BASE_NOT_ANCESTOR`
 */
export async function commitsSince(repo: string, base: string, main: string, flag: string, ledger: string, reader?: RepoReader): Promise<CanvasCommit[]> {
  if (base === main) return [];
  if (reader) {
    const walked: CanvasCommit[] = [];
    let sha: string | undefined = main;
    while (sha && walked.length < WALK_LIMIT) {
      const c = await reader.commit(sha);
      if (!c) break;
      walked.push(c);
      if (c.parents[0] === base) return walked.reverse();
      if (c.parents.length === 0) throw notAncestor(flag, base, ledger);
      sha = c.parents[0];
    }
  }
  const { stdout } = await runGit(repo, ['log', '--format=%H%x00%P%x00%an%x00%at%x00%B%x1e', `${base}..${main}`]);
  const out: CanvasCommit[] = [];
  for (const record of stdout.split('\x1e')) {
    const r = record.replace(/^\n/, '');
    if (r === '') continue;
    const [sha, parents, name, time, ...rest] = r.split('\x00');
    out.push(parseCommit(sha!, commitText('-', parents, name, time, rest.join('\x00'))));
  }
  const oldest = out[out.length - 1];
  if (!oldest || oldest.parents[0] !== base) throw notAncestor(flag, base, ledger);
  return out.reverse();
}

function notAncestor(flag: string, base: string, ledger: string): CanvasError {
  return new CanvasError('BASE_NOT_ANCESTOR', `${flag} ${base.slice(0, 12)} is not an ancestor of main`, `read the canvas again (\`canvas read ${ledger}\`) and write against its Canvas-Base: sha`, { base });
}
