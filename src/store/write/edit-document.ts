import { editTree } from '../../model/edit-tree.js';
import { indexNodes } from '../../model/index-nodes.js';
import { mintId } from '../../model/mint-id.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { Canvas } from '../../model/types.js';
import type { TrailerKey } from '../repo/canvas-commit.js';
import type { EditContext, EditSpec } from './edit-input.js';

/** The document an edit leaves, the node it names, and the trailers it adds (a move's from and to). */
export interface EditedDocument {
  next: Canvas;
  /** The node the edit names: the minted id of an insert; null for create and freeze. */
  named: string | null;
  trailers: Partial<Record<TrailerKey, string>>;
}

/**
 * Perform an edit on the current document (docs/identity.md): an insert mints its node's id from
 * the ledger, the revision and the payload, never reusing an id the canvas ever held.
 *
 * @throws CanvasError the edit's refusals (`BAD_ANCHOR`, `HAS_CHILDREN`, `MOVE_INTO_SELF`,
 *   `NESTING`, `NO_CHANGE`, ...)
 */
export function editDocument(ctx: EditContext, spec: EditSpec): EditedDocument {
  const { ledger } = ctx;
  let next: Canvas;
  let named: string | null = null;
  const trailers: Partial<Record<TrailerKey, string>> = {};
  switch (spec.op) {
    case 'create':
      next = { ledger, schema: '2', children: [] };
      break;
    case 'freeze':
    case 'abandon':
      next = ctx.canvas!;
      break;
    case 'insert': {
      const existing = indexNodes(ctx.canvas!);
      const ids = new Set(ctx.facts!.ids);
      const id = mintId(ledger, ctx.revision!, serializeNode(spec.payload, { payload: true }), (x) => ids.has(x) || existing.has(x));
      ({ canvas: next } = editTree(ctx.canvas!, { op: 'insert', id, payload: spec.payload, anchor: spec.anchor }));
      named = id;
      break;
    }
    case 'replace':
      ({ canvas: next } = editTree(ctx.canvas!, { op: 'replace', node: spec.node, payload: spec.payload }));
      named = spec.node;
      break;
    case 'remove':
      ({ canvas: next } = editTree(ctx.canvas!, { op: 'remove', node: spec.node }));
      named = spec.node;
      break;
    case 'move': {
      const before = indexNodes(ctx.canvas!).get(spec.node);
      ({ canvas: next } = editTree(ctx.canvas!, { op: 'move', node: spec.node, anchor: spec.anchor }));
      named = spec.node;
      trailers['Canvas-From'] = before?.parent ?? 'root';
      trailers['Canvas-To'] = indexNodes(next).get(spec.node)?.parent ?? 'root';
      break;
    }
  }
  return { next, named, trailers };
}
