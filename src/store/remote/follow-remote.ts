import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { runGit } from '../git/git.js';
import { rebuildCanvasRefs } from '../repo/rebuild-canvas-refs.js';
import { RepoReader } from '../repo/repo-reader.js';
import { readWorkingFile, writeWorkingFile } from '../files/working-file.js';
import type { Workspace } from '../repo/workspace.js';
import { REMOTE } from './shared-remote.js';

/** git's empty tree: the "before" of a repository that had no main yet. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The journal of a fast-forward in progress: `<from|-> <to>`, removed once the working files followed. */
function journalPath(ws: Workspace): string {
  return join(ws.repo, '.git', 'canvas-follow');
}

/**
 * Move this repository forward to the remote's `main` (docs/remote.md, "Crashes"): main, then
 * every canvas ref rebuilt from it, then each working file the commits in between changed. A
 * journal written first names the step, so a crash anywhere is finished by the next write or
 * `canvas sync` ({@link finishFollow}). Must run under the repository lock, with `to` a
 * descendant of the local main (or the local main absent).
 *
 * @param from - the local main (null before the first commit)
 * @param to - the remote's main
 * @throws CanvasError `GIT_FAILED`
 */
export async function followRemote(ws: Workspace, from: string | null, to: string): Promise<void> {
  writeFileSync(journalPath(ws), `${from ?? '-'} ${to}\n`);
  await runGit(ws.repo, ['update-ref', '-m', 'canvas: followed the shared remote', 'refs/heads/main', to, from ?? '0'.repeat(40)]);
  // The refs move with main: only one that was wrong before is a repair worth a word.
  await rebuildCanvasRefs(ws, from);
  await followFiles(ws, from, to);
  rmSync(journalPath(ws), { force: true });
}

/**
 * Remove the ref lock files a killed process left (docs/remote.md, "Crashes"): git's own
 * `<ref>.lock` of main, HEAD, packed-refs, every canvas ref and every ref the fetch keeps under
 * `refs/remotes/shared/`. A writer killed after its push, while moving its own refs, leaves
 * `refs/heads/main.lock`; a fetch killed while moving the remote's refs, one under
 * `refs/remotes/shared/`; either would make every later follow or fetch fail. Must run under the
 * repository lock: every ref writer holds it, so a lock file seen under it is stale.
 */
export function clearStaleRefLocks(ws: Workspace): void {
  const gitDir = join(ws.repo, '.git');
  for (const p of ['refs/heads/main.lock', 'HEAD.lock', 'packed-refs.lock']) rmSync(join(gitDir, p), { force: true });
  for (const dir of ['refs/canvas', `refs/remotes/${REMOTE}`]) {
    let names: string[];
    try {
      names = readdirSync(join(gitDir, dir), { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith('.lock')) rmSync(join(gitDir, dir, name), { force: true });
  }
}

/**
 * Finish a fast-forward a crash cut short (its journal is there): the refs are set from the
 * remote's main again by the caller; here the working files follow main, and the journal goes.
 *
 * @throws CanvasError `GIT_FAILED`
 */
export async function finishFollow(ws: Workspace): Promise<void> {
  const path = journalPath(ws);
  if (!existsSync(path)) return;
  const [from, to] = readFileSync(path, 'utf8').trim().split(' ');
  const { stdout } = await runGit(ws.repo, ['rev-parse', '--verify', '--quiet', 'refs/heads/main'], { allowFail: true });
  // The refs moved (main is at `to`): the files may lag. Main still at `from`: nothing moved.
  if (stdout.trim() === to) {
    await rebuildCanvasRefs(ws, from === '-' ? null : (from ?? null));
    await followFiles(ws, from === '-' ? null : (from ?? null), to);
  }
  rmSync(path, { force: true });
}

/**
 * Bring the working files the commits `from..to` changed up to `to`: a file still at its bytes
 * of `from` (or missing) is rewritten; one already at `to` is left; one that is neither was
 * edited outside the tool and is left for `canvas verify` to report (docs/store.md, "Concurrency
 * and crashes"). A file removed by the commits is removed only when it is still at `from`.
 */
async function followFiles(ws: Workspace, from: string | null, to: string): Promise<void> {
  const { stdout } = await runGit(ws.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from ?? EMPTY_TREE, to]);
  const reader = new RepoReader(ws, { locked: true });
  try {
    for (const path of stdout.split('\0').filter(Boolean)) await followFile(ws, reader, path, from, to);
  } finally {
    reader.close();
  }
}

async function followFile(ws: Workspace, reader: RepoReader, path: string, from: string | null, to: string): Promise<void> {
  const next = await reader.file(to, path);
  const before = from ? await reader.file(from, path) : null;
  let current: Buffer | null;
  try {
    current = readWorkingFile(ws.repo, path);
  } catch (e) {
    // A link on the way: never written through; `canvas verify` reports it.
    if (e instanceof CanvasError && e.code === 'UNSAFE_PATH') return;
    throw e;
  }
  if (current && next && current.equals(next)) return;
  if (current !== null && !(before && current.equals(before))) return;
  if (next) writeWorkingFile(ws.repo, path, next);
  else if (current) rmSync(join(ws.repo, path), { force: true });
}
