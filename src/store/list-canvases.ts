import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from './git.js';
import type { Workspace } from './workspace.js';

/** A canvas of the workspace and its revision. */
export interface CanvasRef {
  ledger: string;
  revision: string;
}

/**
 * List every canvas of the workspace (`refs/canvas/*`), sorted by ledger id.
 *
 * @returns ledger ids with their revisions; empty before the first create
 */
export async function listCanvases(ws: Workspace): Promise<CanvasRef[]> {
  if (!existsSync(join(ws.repo, '.git'))) return [];
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
