import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { runGit } from '../git/git.js';
import { BASE_RULE_KEY } from './base-rule-marker.js';
import { REFLOG_CONFIG } from './keep-reflogs.js';
import { sweepInitDirs } from '../files/sweep-init-dirs.js';
import type { Workspace } from './workspace.js';
import { repoExists } from '../files/permission-denied.js';

/**
 * Create the workspace's repository on first use (docs/store.md "Workspace"): `state/canvas` with branch
 * `main`, no hooks, no template, keeping every ref's reflog for good (docs/store.md, "Verify"). Initialised in a private directory and renamed into place, so two
 * first writers racing never see a half-made repository; one a killed first writer left is
 * removed once abandoned (docs/store.md, "Temporary files").
 *
 * @param ws - the workspace
 * @throws CanvasError `NO_WORKSPACE` (exit 2) when `state/canvas` or `state` is there and is not a
 *   directory (docs/errors.md, `NO_WORKSPACE`); `GIT_FAILED` when git cannot initialise
 */
export async function ensureRepo(ws: Workspace): Promise<void> {
  const gitDir = join(ws.repo, '.git');
  if (repoExists(ws.repo)) return;
  notADirectory(ws, ws.repo);
  notADirectory(ws, dirname(ws.repo));
  mkdirSync(ws.repo, { recursive: true });
  // What a first create killed here before left (docs/store.md, "Temporary files").
  sweepInitDirs(ws.repo);
  const tmp = join(ws.repo, `.canvas-init-${process.pid}-${Date.now()}`);
  mkdirSync(tmp);
  try {
    await runGit(tmp, ['init', '-q', '-b', 'main', '--template=', '.']);
    const set = (k: string, v: string) => runGit(tmp, ['config', k, v]);
    await set('core.autocrlf', 'false');
    await set('core.quotePath', 'false');
    await set('gc.autoDetach', 'false');
    await set('commit.gpgSign', 'false');
    for (const [k, v] of REFLOG_CONFIG) await set(k, v);
    // Every commit of a repository the store made has a base on its own canvas's chain.
    await set(BASE_RULE_KEY, 'root');
    mkdirSync(join(tmp, '.git', 'refs', 'canvas'), { recursive: true });
    try {
      renameSync(join(tmp, '.git'), gitDir);
    } catch (e) {
      if (!existsSync(gitDir)) throw e;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Refuse a path the repository needs as a directory that is something else: a file, a link to
 * nothing or to a file (a link to a directory is followed, as before).
 */
function notADirectory(ws: Workspace, path: string): void {
  let kind: string;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return;
    kind = st.isFile() ? 'a file' : 'not a directory';
  } catch {
    try {
      lstatSync(path);
    } catch {
      return;
    }
    kind = 'a symbolic link to nothing';
  }
  throw new CanvasError(
    'NO_WORKSPACE',
    `${path} is ${kind}: the workspace ${ws.root} keeps its repository in a directory there`,
    `move ${path} out of the way, or pass --workspace DIR naming another workspace`,
    { workspace: ws.root, path },
  );
}
