import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { parsePayload } from '../../model/parse-payload.js';
import { canvasNotFoundFor } from '../repo/canvas-not-found.js';
import type { Outcome } from '../repo/outcome.js';
import { rejectionOf } from './rejection-of.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { WriteRequest } from './write-requests.js';
import type { Workspace } from '../repo/workspace.js';
import { applyEdit } from './apply-edit.js';
import { noRole, roleFor } from './check-role.js';
import { commitFiles } from './commit-document.js';
import type { EditContext, EditInput } from './edit-input.js';
import { proposalFile } from '../repo/layout.js';
import { type ProposalFile, proposalJson, readProposal } from '../repo/proposal-file.js';
import { prepareFileWrite } from './prepare-file-write.js';
import { runWrite } from './run-write.js';

/** `canvas approve` and `canvas reject`. */
export interface DecideRequest extends WriteRequest {
  proposal: string;
}

function notFound(ledger: string, id: string): CanvasError {
  return new CanvasError('PROPOSAL_NOT_FOUND', `canvas ${ledger} has no proposal ${id}`, `list them: canvas proposals ${ledger}`, { proposal: id });
}

function decided(p: ProposalFile): CanvasError {
  return new CanvasError(
    'PROPOSAL_DECIDED',
    `proposal ${p.id} was already ${p.status}${p.decidedBy ? ` by ${p.decidedBy}` : ''}; a proposal is decided once`,
    `list open proposals: canvas proposals ${p.ledger}`,
    { proposal: p.id, status: p.status },
  );
}

/**
 * Refuse an approval by the proposer's own `who` (docs/roles.md, "Proposals"): the record would
 * show one identity as both who asked and who signed off, which is what a proposal exists to keep
 * apart. An editor who wants their own change applies it directly.
 *
 * @throws CanvasError `SELF_APPROVAL`
 */
function checkNotSelf(p: ProposalFile, approver: string): void {
  const proposer = p.proposedBy.split(' | ')[0];
  if (proposer !== approver) return;
  throw new CanvasError(
    'SELF_APPROVAL',
    `proposal ${p.id} was made by ${approver}, who cannot approve it too: the approval would record one identity as both who asked and who signed off`,
    `ask another editor or owner of ${p.ledger} to approve it; or reject it (canvas reject ${p.ledger} ${p.id} --why "...") and make the edit yourself`,
    { proposal: p.id, who: approver },
  );
}

function editOf(p: ProposalFile): EditInput {
  switch (p.op) {
    case 'insert':
      return { op: 'insert', payload: parsePayload(p.payload!), anchor: p.anchor! };
    case 'replace':
      return { op: 'replace', node: p.node!, payload: parsePayload(p.payload!) };
    case 'remove':
      return { op: 'remove', node: p.node! };
    case 'move':
      return { op: 'move', node: p.node!, anchor: p.anchor! };
  }
}

/**
 * Approve a proposal (docs/roles.md "Proposals"): an editor or owner replays it through the same write
 * path against the proposal's own base, so a node that moved since is a conflict. The applied
 * commit is the edit's, authored by the approver with the approver's reason as its subject, with
 * `Canvas-Proposal`, `Canvas-Proposed-By` and `Canvas-Proposed-Why` (the proposer's reason); the
 * proposal file is marked approved in the same commit (docs/roles.md).
 *
 * @returns applied, conflict (the proposal stays open), or rejected (`PROPOSAL_NOT_FOUND`,
 *   `PROPOSAL_DECIDED`, `SELF_APPROVAL` (the proposer's own `who`), `ROLE_TOO_LOW`, ...)
 * @throws CanvasError `NO_ROLE`
 */
export async function approveProposal(ws: Workspace, req: DecideRequest): Promise<Outcome> {
  let p: ProposalFile | null;
  try {
    const ledger = checkLedgerId(req.ledger);
    const reader = new RepoReader(ws);
    try {
      const revision = reader.exists() ? await reader.revision(ledger) : null;
      if (!revision) throw await canvasNotFoundFor(ws.root, ledger, { name: 'approve', other: req.proposal }, reader.exists() ? reader : null);
      p = await readProposal(reader, revision, ledger, req.proposal);
    } finally {
      reader.close();
    }
    if (!p) throw notFound(ledger, req.proposal);
  } catch (e) {
    return rejectionOf(e);
  }
  const proposal = p;
  return applyEdit(
    ws,
    editOf(proposal),
    { ledger: req.ledger, why: req.why, author: req.author, base: proposal.base, require: proposal.require ?? undefined, idempotencyKey: req.idempotencyKey },
    {
      approval: {
        proposal: proposal.id,
        decide: async (ctx: EditContext) => {
          const now = await readProposal(ctx.reader, ctx.revision!, ctx.ledger, proposal.id);
          if (!now) throw notFound(ctx.ledger, proposal.id);
          if (now.status !== 'open') throw decided(now);
          checkNotSelf(now, ctx.author.who);
          const content = proposalJson({ ...now, status: 'approved', decidedBy: ctx.author.text, decision: ctx.why });
          return { file: proposalFile(ctx.ledger, now.id), content, proposedBy: now.proposedBy, proposedWhy: now.why };
        },
      },
    },
  );
}

/**
 * Reject a proposal (docs/roles.md "Proposals"): an editor or owner, once; one commit touching only the
 * proposal's file, with `Canvas-Proposal`.
 *
 * @returns applied (node null) or rejected (`PROPOSAL_NOT_FOUND`, `PROPOSAL_DECIDED`,
 *   `ROLE_TOO_LOW`, ...)
 * @throws CanvasError `NO_ROLE`
 */
export function rejectProposal(ws: Workspace, req: DecideRequest): Promise<Outcome> {
  return runWrite(ws, () => {
    // The proposal is the command's other argument: `canvas reject <proposal> <ledger>` is said to look swapped.
    const prepared = prepareFileWrite(req, 'reject', (ledger, why) => ({ op: 'reject', ledger, why, proposal: req.proposal }), req.proposal);
    const { ledger, why, author } = prepared;
    return {
      ...prepared,
      role: async (ctx) => {
        const role = await roleFor(ctx, author.who);
        if (role === null) throw noRole(ctx, 'editor');
        if (role !== 'editor' && role !== 'owner') {
          throw new CanvasError('ROLE_TOO_LOW', `${author.who} is ${role} on canvas ${ledger}; rejecting a proposal needs editor or owner`, `ask an owner for editor`, {
            who: author.who,
            role,
          });
        }
        return 'apply';
      },
      write: async (ctx) => {
        const p = await readProposal(ctx.reader, ctx.revision!, ledger, req.proposal);
        if (!p) throw notFound(ledger, req.proposal);
        if (p.status !== 'open') throw decided(p);
        return commitFiles(
          ctx,
          'reject',
          p.node,
          { 'Canvas-Proposal': p.id, ...(p.node ? { 'Canvas-Proposal-Node': p.node } : {}) },
          {
            [proposalFile(ledger, p.id)]: proposalJson({ ...p, status: 'rejected', decidedBy: author.text, decision: why }),
          },
        );
      },
    };
  });
}
