import { createHash } from 'node:crypto';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import { serializeNode } from '../../model/serialize-node.js';
import { checkCanvasSize } from '../../model/size-limits.js';
import type { Canvas } from '../../model/types.js';
import type { TrailerKey } from '../repo/canvas-commit.js';
import { guardOneNode } from './guard-one-node.js';
import type { Outcome } from '../repo/outcome.js';
import { commitDocument } from './commit-document.js';
import type { EditContext, EditSpec } from './edit-input.js';
import { type ProposalFile, proposalJson } from '../repo/proposal-file.js';
import { proposalFile } from '../repo/layout.js';

/**
 * Store a commenter's write as a proposal (docs/roles.md "Proposals"): the edit was checked in full
 * (staleness, schema, the one-node guard) against the current revision, and is recorded in its
 * own commit touching only `proposals/<ledger>/<id>.json`.
 */
export async function proposeEdit(ctx: EditContext, next: Canvas, spec: EditSpec, named: string | null): Promise<Outcome> {
  guardOneNode(ctx.canvas, next, { op: spec.op as 'insert', node: named });
  // Refused now rather than at approval: an edit the canvas could never take is no proposal.
  checkCanvasSize(serializeCanvas(next), ctx.ledger, () => (ctx.canvas ? serializeCanvas(ctx.canvas) : ''));
  const id = createHash('sha256').update(`${ctx.ledger}\n${ctx.revision}\n${ctx.request}`).digest('hex').slice(0, 10);
  const file: ProposalFile = {
    id,
    ledger: ctx.ledger,
    op: spec.op as ProposalFile['op'],
    node: spec.op === 'insert' ? null : ((spec as { node: string }).node ?? null),
    anchor: 'anchor' in spec ? spec.anchor : null,
    payload: 'payload' in spec ? serializeNode(spec.payload, { payload: true }) : null,
    base: ctx.base ?? ctx.revision!,
    require: ctx.common.require ?? null,
    why: ctx.why,
    proposedBy: ctx.author.text,
    proposedRevision: ctx.revision!,
    status: 'open',
  };
  const trailers: Partial<Record<TrailerKey, string>> = { 'Canvas-Proposal': id };
  if (file.node) trailers['Canvas-Proposal-Node'] = file.node;
  const revision = await commitDocument(ctx, ctx.canvas!, 'propose', file.node, trailers, {
    [proposalFile(ctx.ledger, id)]: proposalJson(file),
  });
  return { outcome: 'proposed', proposalId: id, revision };
}
