import { approveProposal, insertNode, moveNode, type Outcome, rejectProposal, removeNode, replaceNode, type Workspace } from '../store/index.js';
import type { DecideBody, EditBody } from './edit-body.js';
import { payloadOfForm } from './payload-of-form.js';

/**
 * Apply an edit the page asked for through the store's own verbs (docs/serve.md, "Editing"):
 * the server never touches a canvas file. The author is the person running the server, the base
 * the revision the page showed; the store checks the reason, the role, the base and the one-node
 * rule exactly as for any other writer, and its outcome goes back to the page as it is.
 *
 * @param ws - the workspace
 * @param author - the server's author (`--author`, else `CANVAS_AUTHOR`)
 * @param ledger - the canvas
 * @param body - the checked request
 * @returns the store's outcome: applied, proposed, conflict or rejected
 * @throws CanvasError what the store throws rather than returns (`NO_ROLE`, internal failures)
 */
export function runEdit(ws: Workspace, author: string, ledger: string, body: EditBody): Promise<Outcome> {
  const common = { ledger, author, why: body.why, base: body.base };
  switch (body.op) {
    case 'insert':
      return insertNode(ws, { ...common, after: body.after, into: body.into, payload: payloadOfForm(body.node) });
    case 'replace':
      return replaceNode(ws, { ...common, node: body.id, payload: payloadOfForm(body.node) });
    case 'remove':
      return removeNode(ws, { ...common, node: body.id });
    case 'move':
      return moveNode(ws, { ...common, node: body.id, after: body.after, into: body.into });
  }
}

/**
 * Approve or reject a proposal for the page, through the store's verbs (docs/roles.md,
 * "Proposals": an editor or owner decides, once).
 *
 * @returns the store's outcome
 * @throws CanvasError what the store throws (`NO_ROLE`, internal failures)
 */
export function runDecision(ws: Workspace, author: string, ledger: string, body: DecideBody): Promise<Outcome> {
  const req = { ledger, author, why: body.why, proposal: body.proposal };
  return body.decision === 'approve' ? approveProposal(ws, req) : rejectProposal(ws, req);
}
