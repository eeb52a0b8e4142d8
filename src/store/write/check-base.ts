import { CanvasError } from '../../model/canvas-error.js';
import type { Anchor } from '../../model/edit-tree.js';
import { indexNodes } from '../../model/index-nodes.js';
import { type CanvasCommit, DOC_OPS } from '../repo/canvas-commit.js';
import { commitsSince, resolveBase } from '../repo/commits-since.js';
import type { Conflict } from '../repo/outcome.js';
import { checkBaseOnChain } from './check-base-on-chain.js';
import { diffEntries } from './diff-entries.js';
import type { EditContext, EditSpec } from './edit-input.js';

/** The nodes a write checks against its base (docs/store.md "Staleness"). */
function checkedNodes(spec: EditSpec): string[] {
  const anchorId = (a: Anchor) => ('into' in a ? (a.into === 'root' ? null : a.into) : a.after);
  switch (spec.op) {
    case 'insert':
      return [anchorId(spec.anchor)].filter((x): x is string => x !== null);
    case 'replace':
    case 'remove':
      return [spec.node];
    case 'move':
      return [spec.node, anchorId(spec.anchor)].filter((x): x is string => x !== null);
    default:
      return [];
  }
}

/** What the base check found: a conflict to return, or this canvas's commits since the base. */
export type BaseChecked = { conflict: Conflict } | { conflict: null; baseSha: string | null; since: CanvasCommit[] };

/**
 * Check an edit against the revision its writer decided against (docs/store.md "Staleness"): the
 * base (and `--require`) must be a revision of this canvas; with `--require`, any change to the
 * document since is a `REQUIRE_CHANGED` conflict; otherwise a node the edit names (the node, its
 * anchor) that changed since the base is a `STALE_BASE` conflict, and one that is gone is refused.
 * Sets `ctx.base` to the base's full sha. Without a base (create, freeze) or a repository without
 * `main`, there is nothing to check.
 *
 * @param base - the `--base` (or else `--require`) the writer gave
 * @throws CanvasError `UNKNOWN_BASE`, `FOREIGN_BASE`, `NODE_NOT_FOUND`
 */
export async function checkBase(ctx: EditContext, spec: EditSpec, base: string | undefined): Promise<BaseChecked> {
  const { reader, ledger } = ctx;
  if (base === undefined || !ctx.main) return { conflict: null, baseSha: null, since: [] };
  const baseSha = await resolveBase(reader, base, ctx.common.base !== undefined ? '--base' : '--require', ledger);
  ctx.base = baseSha;
  const main = ctx.main;
  // This canvas's commits after a revision, up to main.
  const sinceOf = async (sha: string, flag: string) => (await commitsSince(ctx.ws.repo, sha, main, flag, ledger, reader)).filter((c) => c.ledger === ledger);
  const flag = ctx.common.base !== undefined ? '--base' : '--require';
  // A base that is the canvas's revision (a write right after its read, the usual case) has no
  // commits of this canvas after it: main's line need not be walked back to it, which took a
  // read of every other canvas's commit since (37 round trips in the CLI edit benchmark).
  const since = baseSha === ctx.revision ? [] : await sinceOf(baseSha, flag);
  // A base must be a revision of this canvas (docs/store.md, "Staleness").
  await checkBaseOnChain(reader, ledger, ctx.revision!, baseSha, since, flag);
  if (ctx.common.require !== undefined) {
    const req = await resolveBase(reader, ctx.common.require, '--require', ledger);
    const sinceReq = req === baseSha ? since : await sinceOf(req, '--require');
    await checkBaseOnChain(reader, ledger, ctx.revision!, req, sinceReq, '--require');
    const changed = sinceReq.filter((c) => DOC_OPS.has(c.op ?? ''));
    if (changed.length > 0) {
      const conflict: Conflict = {
        outcome: 'conflict',
        code: 'REQUIRE_CHANGED',
        node: 'node' in spec ? spec.node : null,
        expectedRevision: req,
        currentRevision: ctx.revision!,
        diff: await diffEntries(ctx, req, changed, () => true),
      };
      return { conflict };
    }
  }
  const touched = new Set(since.filter((c) => DOC_OPS.has(c.op ?? '') && c.node).map((c) => c.node!));
  const present = ctx.canvas ? indexNodes(ctx.canvas) : new Map();
  for (const id of checkedNodes(spec)) {
    if (touched.has(id)) {
      const conflict: Conflict = {
        outcome: 'conflict',
        code: 'STALE_BASE',
        node: id,
        expectedRevision: baseSha,
        currentRevision: ctx.revision!,
        diff: await diffEntries(ctx, baseSha, since, (n) => n === id),
      };
      return { conflict };
    }
    if (!present.has(id)) {
      throw new CanvasError('NODE_NOT_FOUND', `${id} is not a node of canvas ${ledger}`, `run \`canvas read ${ledger}\` to see the node ids`, {
        node: id,
        ledger,
      });
    }
  }
  return { conflict: null, baseSha, since };
}
