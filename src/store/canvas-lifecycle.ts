import { CanvasError } from '../model/canvas-error.js';
import { checkWords } from '../model/payload-from-input.js';
import { applyEdit } from './apply-edit.js';
import type { Outcome } from './outcome.js';
import type { OpenRequest, WriteRequest } from './write-requests.js';
import type { Workspace } from './workspace.js';

/**
 * Create a canvas: the root alone, one commit (docs/store.md "Writes"). The repository is created on
 * first use; the creator becomes the canvas's owner.
 *
 * @returns applied (node null), or rejected (`BAD_LEDGER_ID`, `CANVAS_EXISTS`, `BAD_REASON`,
 *   `BAD_AUTHOR`, `DIRTY_WORKTREE`)
 */
export function createCanvas(ws: Workspace, req: WriteRequest): Promise<Outcome> {
  return applyEdit(ws, { op: 'create' }, req);
}

/**
 * Freeze a canvas (docs/store.md "Commits"): one commit naming no node and changing no byte, whose
 * reason says the work is over and why. A frozen canvas still takes edits.
 *
 * @returns applied (node null), or rejected
 * @throws CanvasError `NO_ROLE`
 */
export function freezeCanvas(ws: Workspace, req: WriteRequest): Promise<Outcome> {
  return applyEdit(ws, { op: 'freeze' }, req);
}

/**
 * Open a canvas (docs/store.md "Commits"): create, then the problem and the expected value as the first
 * two text nodes, three commits through the same write path.
 *
 * @returns the last applied outcome with `nodes` = [problem id, expected-value id], or the first
 *   outcome that was not applied
 */
export async function openCanvas(ws: Workspace, req: OpenRequest): Promise<Outcome> {
  const { problem, expectedValue, ...common } = req;
  let problemText: string;
  let valueText: string;
  try {
    problemText = checkWords(typeof problem === 'string' ? problem : '', '--problem', '/text');
    valueText = checkWords(typeof expectedValue === 'string' ? expectedValue : '', '--expected-value', '/text');
  } catch (e) {
    if (e instanceof CanvasError) return { outcome: 'rejected', code: e.code, reason: e.message, hint: e.hint };
    throw e;
  }
  const created = await applyEdit(ws, { op: 'create' }, common);
  if (created.outcome !== 'applied') return created;
  const p = await applyEdit(
    ws,
    { op: 'insert', payload: { text: problemText }, anchor: { into: 'root' } },
    { ...common, why: 'the problem, as stated when the task was opened', base: created.revision, idempotencyKey: undefined },
  );
  if (p.outcome !== 'applied') return p;
  const e = await applyEdit(
    ws,
    { op: 'insert', payload: { text: valueText }, anchor: { after: p.node! } },
    { ...common, why: 'the expected value, as stated when the task was opened', base: p.revision, idempotencyKey: undefined },
  );
  if (e.outcome !== 'applied') return e;
  return { ...e, nodes: [p.node!, e.node!] };
}
