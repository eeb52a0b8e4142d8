import { commitText, parseCommit, type CanvasCommit } from '../repo/canvas-commit.js';
import { runGit } from '../git/git.js';
import type { RepoReader } from '../repo/repo-reader.js';

// Main's history as `canvas verify` replays it: one `git log --raw` of main, oldest first, each
// commit with the files it changed, and those files asked of git ahead of the replay.

/** A file a commit changed, as `git log --raw` gives it. */
export interface RawEntry {
  path: string;
  newSha: string;
  status: string;
}

export interface LoggedCommit {
  commit: CanvasCommit;
  files: RawEntry[];
  committer: { name: string; email: string };
  authorEmail: string;
}

/** Parse `git log --raw -z` output into commits with their changed paths. */
function parseLog(out: string): LoggedCommit[] {
  const result: LoggedCommit[] = [];
  for (const record of out.split('\x1e')) {
    if (record.trim() === '') continue;
    const end = record.indexOf('\x1f');
    const head = record.slice(0, end);
    const raw = record.slice(end + 1);
    const [sha, parents, tree, name, email, time, committerName, committerEmail, ...rest] = head.split('\x00');
    const text = commitText(tree, parents, name, time, rest.join('\x00'));
    const files: RawEntry[] = [];
    const parts = raw.replace(/^[\n\x00]+/, '').split('\x00');
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i]!.trim();
      const path = parts[i + 1]!;
      if (!meta.startsWith(':')) continue;
      const f = meta.slice(1).split(' ');
      files.push({ path, newSha: f[3] ?? '', status: f[4] ?? '' });
    }
    result.push({
      commit: parseCommit(sha!, text),
      files,
      committer: { name: committerName ?? '', email: committerEmail ?? '' },
      authorEmail: email ?? '',
    });
  }
  return result;
}

/** How many commits ahead the replay asks git for the files they changed. */
const AHEAD = 8;

/**
 * Ask git now for the files the commits up to {@link AHEAD} after `i` changed, so that git reads
 * and inflates them while the replay checks the commits before (the reader's requests are
 * answered in order, one process): the replay then waits for git about once, not once a commit.
 */
export function prefetch(commits: readonly LoggedCommit[], i: number, asked: Map<string, Promise<Buffer | null>>, reader: RepoReader): void {
  const ahead = commits[i + AHEAD] ?? null;
  for (const logged of i === 0 ? commits.slice(0, AHEAD + 1) : ahead ? [ahead] : []) {
    for (const f of logged.files) {
      if (f.status.startsWith('D') || asked.has(f.newSha)) continue;
      const p = reader.object(f.newSha);
      p.catch(() => {});
      asked.set(f.newSha, p);
    }
  }
}

/**
 * Every commit of main, oldest first, with the files each changed (one `git log --raw`).
 *
 * @param repo - the repository's work tree
 * @param main - main's sha
 */
export async function logOfMain(repo: string, main: string): Promise<LoggedCommit[]> {
  const { stdout } = await runGit(repo, [
    '-c',
    'core.quotePath=false',
    'log',
    '--reverse',
    '--root',
    '--no-renames',
    '--raw',
    '--no-abbrev',
    '-z',
    '--format=%x1e%H%x00%P%x00%T%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%B%x1f',
    main,
  ]);
  return parseLog(stdout);
}
