import { join } from 'node:path';
import { runGit } from '../git/git.js';
import { repoExists } from '../files/permission-denied.js';
import { canvasesOnMain, rebuildCanvasRefs, refsNeedRebuild, repairOrReadPast } from './rebuild-canvas-refs.js';
import { RepoReader } from './repo-reader.js';
import type { Workspace } from './workspace.js';

/** A canvas of the workspace and its revision. */
export interface CanvasRef {
  ledger: string;
  revision: string;
}

async function canvasRefs(ws: Workspace): Promise<CanvasRef[]> {
  const { stdout } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [ledger, revision] = l.split(' ');
      return { ledger: ledger!, revision: revision! };
    })
    .sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
}

/**
 * List every canvas of the workspace (`refs/canvas/*`), sorted by ledger id. When a canvas on
 * main has no ref (a clone brings main only), or a ref may be behind main's history, the refs are
 * rebuilt from main first, under the repository lock when it is free, else read from main without
 * waiting (docs/store.md, "Canvas refs"); the normal path is one `git for-each-ref` and two reads
 * through the open batch (main, its root tree).
 *
 * @returns ledger ids with their revisions; empty before the first create
 * @throws CanvasError `GIT_FAILED`
 */
export async function listCanvases(ws: Workspace): Promise<CanvasRef[]> {
  if (!repoExists(ws.repo)) return [];
  const listed = await canvasRefs(ws);
  const reader = new RepoReader(ws);
  try {
    const stale = async (list: CanvasRef[]) => refsNeedRebuild(reader, null, null, new Set(list.map((c) => c.ledger)));
    if (!(await stale(listed))) return listed;
    const repair = async () => {
      if (await stale(await canvasRefs(ws))) await rebuildCanvasRefs(ws);
      return canvasRefs(ws);
    };
    // Another process holding the lock (a write's push rounds) is not waited for: main answers.
    const past = async () => [...(await canvasesOnMain(reader))].map(([ledger, revision]) => ({ ledger, revision })).sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
    return await repairOrReadPast(join(ws.repo, '.git'), repair, past);
  } finally {
    reader.close();
  }
}
