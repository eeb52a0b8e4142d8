import { existsSync } from 'node:fs';
import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { checkWords } from '../../model/payload-from-input.js';
import { canvasExists } from '../repo/canvas-exists.js';
import { RepoReader } from '../repo/repo-reader.js';
import { applyEdit } from './apply-edit.js';
import { readLedgerRow } from '../repo/read-ledger-row.js';
import { rejectionOf } from './rejection-of.js';
import type { Outcome } from '../repo/outcome.js';
import type { OpenRequest, WriteRequest } from './write-requests.js';
import type { Workspace } from '../repo/workspace.js';
import { repoExists } from '../files/permission-denied.js';

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
 * Abandon a canvas (docs/store.md, "Endings"): like a freeze, one commit naming no node and changing
 * no byte, whose reason says why the work was given up; the canvas keeps taking edits and nothing is
 * deleted. A later freeze or abandon is allowed and becomes the latest ending.
 *
 * @returns applied (node null), or rejected (`CANVAS_NOT_FOUND`, `BAD_REASON`, `BAD_AUTHOR`,
 *   `ROLE_TOO_LOW` for a viewer or commenter, ...)
 * @throws CanvasError `NO_ROLE`
 */
export function abandonCanvas(ws: Workspace, req: WriteRequest): Promise<Outcome> {
  return applyEdit(ws, { op: 'abandon' }, req);
}

/** How the caller names the two values of `open`, for messages: flags on the command line, arguments over MCP. */
export interface OpenSources {
  problem: string;
  expectedValue: string;
}

const CLI_SOURCES: OpenSources = { problem: '--problem', expectedValue: '--expected-value' };

function missingValues(ledger: string, path: string, got: { problem?: string | undefined; expectedValue?: string | undefined }, sources: OpenSources): CanvasError {
  const missing = [
    ...(got.problem === undefined ? [{ what: 'problem', source: sources.problem, key: '"problem"' }] : []),
    ...(got.expectedValue === undefined ? [{ what: 'expected value', source: sources.expectedValue, key: '"expected_value"' }] : []),
  ];
  const keys = missing.map((m) => m.key).join(' and ');
  const rowSays = existsSync(path) ? `the ledger row ${path} has no ${keys}` : `there is no ledger row ${path}`;
  return new CanvasError(
    'USAGE',
    `no ${missing.map((m) => m.what).join(' and no ')} to open ${ledger} with: ${missing.map((m) => m.source).join(' and ')} not given, and ${rowSays}`,
    `pass ${missing.map((m) => `${m.source} "..."`).join(' and ')}, or set ${keys} in ${path}`,
    { missing: missing.map((m) => m.source), row: path },
  );
}

/**
 * The problem and the expected value: each from the request when given, else from the ledger row
 * (docs/store.md, "The ledger row"). The row is read only when a value is missing.
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_LEDGER_ROW`, `USAGE` (a value neither source gives,
 *   naming both), `SCHEMA` (a blank value, or one with a character a canvas cannot hold)
 */
function openValues(ws: Workspace, req: OpenRequest, sources: OpenSources): { problem: string; expectedValue: string } {
  const ledger = checkLedgerId(req.ledger);
  const given = (v: unknown) => (typeof v === 'string' ? v : undefined);
  let problem = given(req.problem);
  let expectedValue = given(req.expectedValue);
  const labels = { ...sources };
  if (problem === undefined || expectedValue === undefined) {
    const row = readLedgerRow(ws, ledger);
    if (problem === undefined && row.problem !== undefined) labels.problem = `"problem" of the ledger row ${row.path}`;
    if (expectedValue === undefined && row.expectedValue !== undefined) labels.expectedValue = `the expected value of the ledger row ${row.path}`;
    problem ??= row.problem;
    expectedValue ??= row.expectedValue;
    if (problem === undefined || expectedValue === undefined) throw missingValues(ledger, row.path, { problem, expectedValue }, sources);
  }
  return {
    problem: checkWords(problem, labels.problem, '/text'),
    expectedValue: checkWords(expectedValue, labels.expectedValue, '/text'),
  };
}

/**
 * Refuse an open of a canvas that exists (`CANVAS_EXISTS`), read without the lock; the create
 * checks again under it, so a canvas made meanwhile (or only on the shared remote) is still refused.
 */
async function refuseExisting(ws: Workspace, ledger: string): Promise<void> {
  if (!repoExists(ws.repo)) return;
  const reader = new RepoReader(ws);
  try {
    const revision = await reader.revision(ledger);
    if (revision !== null) throw canvasExists(ledger, revision);
  } finally {
    reader.close();
  }
}

/**
 * Open a canvas (docs/store.md "Commits"): create, then the problem and the expected value as the
 * first two text nodes, three commits through the same write path. Each value comes from the
 * request when given, else from the ledger row `state/ledger/<ledger>.json` (docs/store.md, "The
 * ledger row"), which is read, never written. Every check runs before the first commit: a refusal
 * writes nothing.
 *
 * @param ws - the workspace
 * @param req - the write request, with `problem` and `expectedValue` when the caller gives them
 * @param sources - how the caller names the two values, for messages (default the CLI's flags)
 * @returns the last applied outcome with `nodes` = [problem id, expected-value id], or the first
 *   outcome that was not applied: rejected with `BAD_LEDGER_ID`, then `CANVAS_EXISTS` when the
 *   canvas is there (before anything about the values), `USAGE` when a value is in neither source (naming
 *   both), `BAD_LEDGER_ROW` for a row that cannot be read as a JSON object of strings, `SCHEMA` for
 *   a blank value, and what create refuses
 */
export async function openCanvas(ws: Workspace, req: OpenRequest, sources: OpenSources = CLI_SOURCES): Promise<Outcome> {
  const { problem: _p, expectedValue: _e, ...common } = req;
  let values: { problem: string; expectedValue: string };
  try {
    // The canvas being there already is the first thing to hear, before what the values lack.
    await refuseExisting(ws, checkLedgerId(req.ledger));
    values = openValues(ws, req, sources);
  } catch (e) {
    return rejectionOf(e);
  }
  const created = await applyEdit(ws, { op: 'create' }, common);
  if (created.outcome !== 'applied') return created;
  const p = await applyEdit(
    ws,
    { op: 'insert', payload: { text: values.problem }, anchor: { into: 'root' } },
    { ...common, why: 'the problem, as stated when the task was opened', base: created.revision, idempotencyKey: undefined },
  );
  if (p.outcome !== 'applied') return p;
  const e = await applyEdit(
    ws,
    { op: 'insert', payload: { text: values.expectedValue }, anchor: { after: p.node! } },
    { ...common, why: 'the expected value, as stated when the task was opened', base: p.revision, idempotencyKey: undefined },
  );
  if (e.outcome !== 'applied') return e;
  return { ...e, nodes: [p.node!, e.node!] };
}
