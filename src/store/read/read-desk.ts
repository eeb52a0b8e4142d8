import { type Desk, type DeskProposal, deskProposalOf, deskQuestionsOf, sortDesk } from '../../model/desk.js';
import type { Canvas } from '../../model/types.js';
import { listCanvases } from '../repo/list-canvases.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { listProposals } from './list-proposals.js';
import { readSnapshot } from './read-snapshot.js';

/**
 * The proposals of one canvas that wait for a decision, each with the change it would make to
 * the canvas as it is at `revision` (docs/site.md, "The desk").
 *
 * @param ws - the workspace
 * @param ledger - the canvas
 * @param canvas - its tree at `revision`
 * @param revision - its current revision
 * @param reader - an open reader to reuse
 * @returns the open proposals, by id
 * @throws CanvasError `CANVAS_NOT_FOUND`, `GIT_FAILED`
 */
export async function readOpenProposals(ws: Workspace, ledger: string, canvas: Canvas, revision: string, reader?: RepoReader): Promise<DeskProposal[]> {
  const open = (await listProposals(ws, { ledger }, reader)).filter((p) => p.status === 'open');
  return open.map((p) => deskProposalOf(p, canvas, revision));
}

/**
 * Read the desk (docs/site.md, "The desk"; docs/cli.md, `canvas desk`): every open question of
 * every canvas with who asked it and when, oldest first, and every proposal waiting for a
 * decision with its change, each at its canvas's current revision. A read: nothing is written.
 *
 * @param ws - the workspace
 * @returns the desk; empty before the first canvas
 * @throws CanvasError `GIT_FAILED`, and what reading a stored canvas throws (`SCHEMA`, ...)
 */
export async function readDesk(ws: Workspace): Promise<Desk> {
  const desk: Desk = { questions: [], proposals: [] };
  const reader = new RepoReader(ws);
  try {
    for (const { ledger } of await listCanvases(ws)) {
      const snapshot = await readSnapshot(ws, { ledger, edits: 1 }, reader);
      desk.questions.push(...deskQuestionsOf(snapshot));
      desk.proposals.push(...(await readOpenProposals(ws, ledger, snapshot.canvas, snapshot.revision, reader)));
    }
  } finally {
    reader.close();
  }
  return sortDesk(desk);
}
