import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from './git.js';
import { BASE_RULE_KEY } from './base-rule-marker.js';
import { REFLOG_CONFIG } from './keep-reflogs.js';
import type { Workspace } from './workspace.js';

/**
 * Create the workspace's repository on first use (docs/store.md "Workspace"): `state/canvas` with branch
 * `main`, no hooks, no template, keeping every ref's reflog for good (docs/store.md, "Verify"). Initialised in a private directory and renamed into place, so two
 * first writers racing never see a half-made repository.
 *
 * @param ws - the workspace
 * @throws CanvasError `GIT_FAILED` when git cannot initialise
 */
export async function ensureRepo(ws: Workspace): Promise<void> {
  const gitDir = join(ws.repo, '.git');
  if (existsSync(gitDir)) return;
  mkdirSync(ws.repo, { recursive: true });
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
