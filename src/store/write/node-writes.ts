import type { Anchor } from '../../model/edit-tree.js';
import { anchorOf } from './anchor-of.js';
import { applyEdit } from './apply-edit.js';
import type { Outcome } from '../repo/outcome.js';
import { rejectionOf } from './rejection-of.js';
import type { InsertRequest, MoveRequest, RemoveRequest, ReplaceRequest } from './write-requests.js';
import type { Workspace } from '../repo/workspace.js';

/**
 * Insert a new node (docs/identity.md): `v=1`, after a sibling or first into a section or the
 * root; the store mints its id (returned as `node`). A section is born empty.
 *
 * @returns applied (with the minted id and the diff of what else changed since base), conflict
 *   (the anchor moved since base), or rejected (`BASE_REQUIRED`, `NODE_NOT_FOUND`, `BAD_ANCHOR`,
 *   `NESTING`, `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `SCHEMA`, `BAD_REASON`, ...)
 * @throws CanvasError `NO_ROLE`, internal errors
 */
export async function insertNode(ws: Workspace, req: InsertRequest): Promise<Outcome> {
  let anchor: Anchor;
  try {
    anchor = anchorOf(req, 'insert');
  } catch (e) {
    return rejectionOf(e);
  }
  return applyEdit(ws, { op: 'insert', payload: req.payload, anchor }, req);
}

/**
 * Replace a node's content (docs/identity.md): same id and place, `v+1`, the type may change.
 * A section takes a childless `<section title>` (the title changes, the children stay).
 *
 * @returns applied, conflict (the node changed or vanished since base), or rejected
 *   (`NO_CHANGE`, `HAS_CHILDREN`, `PAYLOAD_CHILDREN`, `NODE_NOT_FOUND`, ...)
 * @throws CanvasError `NO_ROLE`, internal errors
 */
export function replaceNode(ws: Workspace, req: ReplaceRequest): Promise<Outcome> {
  return applyEdit(ws, { op: 'replace', node: req.node, payload: req.payload }, req);
}

/**
 * Remove a node (docs/identity.md). A section with children is refused, naming every child.
 *
 * @returns applied, conflict, or rejected (`HAS_CHILDREN`, `NODE_NOT_FOUND`, ...)
 * @throws CanvasError `NO_ROLE`, internal errors
 */
export function removeNode(ws: Workspace, req: RemoveRequest): Promise<Outcome> {
  return applyEdit(ws, { op: 'remove', node: req.node }, req);
}

/**
 * Move a node (docs/identity.md): same content, `v+1`; a section travels with its subtree; never
 * into its own subtree; one level of nesting holds after the move.
 *
 * @returns applied, conflict (the node or the anchor changed since base), or rejected
 *   (`MOVE_INTO_SELF`, `NESTING`, `NO_CHANGE`, `NODE_NOT_FOUND`, ...)
 * @throws CanvasError `NO_ROLE`, internal errors
 */
export async function moveNode(ws: Workspace, req: MoveRequest): Promise<Outcome> {
  let anchor: Anchor;
  try {
    anchor = anchorOf(req, 'move');
  } catch (e) {
    return rejectionOf(e);
  }
  return applyEdit(ws, { op: 'move', node: req.node, anchor }, req);
}
