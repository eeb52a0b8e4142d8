import { CanvasError } from '../../model/canvas-error.js';
import { checkNewLedgerId } from '../../model/check-ledger-id.js';
import { checkFigures } from './check-figures.js';
import type { Applied, Outcome } from '../repo/outcome.js';
import type { Workspace } from '../repo/workspace.js';
import { checkBase } from './check-base.js';
import { checkCommon } from './check-common.js';
import { checkEditRole } from './check-role.js';
import { commitDocument } from './commit-document.js';
import { diffEntries } from './diff-entries.js';
import { editDocument } from './edit-document.js';
import { type Approved, type EditContext, type EditHooks, type EditInput, type EditSpec, toSpec, type WriteCommon } from './edit-input.js';
import { proposeEdit } from './propose-edit.js';
import { requestHash } from './request-hash.js';
import { runWrite } from './run-write.js';

/**
 * Apply one write through the store's single write path (docs/store.md "Writes", "Staleness", "Outcomes"; docs/roles.md). Validates the
 * reason, author, ledger id and base before anything is touched; under the repository lock it
 * repairs crash leftovers, checks the role, replays an idempotency key, refuses a working file
 * edited outside the tool, checks staleness, applies the edit, runs the one-node guard, commits
 * with the store's trailers and moves `main` and `refs/canvas/<ledger>` together.
 *
 * @param ws - the workspace
 * @param input - the edit, its payload a tree, an XML fragment or sugar
 * @param common - ledger, reason, author, base, require, idempotency key
 * @param hooks - extensions used by proposals and approvals
 * @returns exactly one outcome: applied, proposed, conflict or rejected
 * @throws CanvasError `NO_ROLE` (exit 5) and internal errors (`GIT_FAILED`, `GIT_HELPER_FAILED`, `LOCK_TIMEOUT`,
 *   `REF_MOVED`); every other refusal is a `rejected` outcome
 */
export function applyEdit(ws: Workspace, input: EditInput, common: WriteCommon, hooks: EditHooks = {}): Promise<Outcome> {
  return runWrite(ws, async () => {
    const { ledger, why, author } = checkCommon(common);
    if (input.op === 'create') checkNewLedgerId(ledger);
    const needsBase = input.op !== 'create' && input.op !== 'freeze' && input.op !== 'abandon';
    const base = common.base ?? common.require;
    if (needsBase && base === undefined) {
      throw new CanvasError('BASE_REQUIRED', `${input.op} needs --base <sha>: the revision you decided against`, `run \`canvas read ${ledger}\` first and pass its Canvas-Base: sha as --base`);
    }
    const spec = toSpec(input);
    if ('payload' in spec) await checkFigures(spec.payload);
    // An approval's request names its proposal, so a key replays only the approval it was used for.
    const request = requestHash(ledger, spec, common) + (hooks.approval ? `:${hooks.approval.proposal}` : '');
    return {
      ledger,
      why,
      author,
      operation: { touches: 'document', edit: spec },
      request,
      common,
      role: (ctx) => checkEditRole(ctx, spec, hooks.approval !== undefined),
      // An approval: the proposal must still be open, checked before anything else about the edit.
      decide: hooks.approval?.decide,
      write: (ctx, mode, approval) => writeEdit(ctx, spec, mode, base, hooks.approval && approval ? { ...approval, proposal: hooks.approval.proposal } : null),
    };
  });
}

/** An edit's own steps under the lock, in the order docs/store.md ("Writes") gives them. */
async function writeEdit(ctx: EditContext, spec: EditSpec, mode: 'apply' | 'propose', base: string | undefined, approval: (Approved & { proposal: string }) | null): Promise<Outcome> {
  // Staleness (docs/store.md "Staleness").
  const checked = await checkBase(ctx, spec, base);
  if (checked.conflict) return checked.conflict;
  const { baseSha, since } = checked;
  const { next, named, trailers } = editDocument(ctx, spec);
  if (mode === 'propose') return proposeEdit(ctx, next, spec, named);
  const extraFiles: Record<string, string> = {};
  if (approval) {
    extraFiles[approval.file] = approval.content;
    trailers['Canvas-Proposal'] = approval.proposal;
    trailers['Canvas-Proposed-By'] = approval.proposedBy;
    trailers['Canvas-Proposed-Why'] = approval.proposedWhy;
  }
  const diff = baseSha ? await diffEntries(ctx, baseSha, since, (n) => n !== named) : [];
  const revision = await commitDocument(ctx, next, spec.op, named, trailers, extraFiles);
  const applied: Applied = { outcome: 'applied', revision, node: named, diff };
  return applied;
}
