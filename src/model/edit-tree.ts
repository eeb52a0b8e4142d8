import { CanvasError } from './canvas-error.js';
import { indexNodes } from './index-nodes.js';
import { serializeNode } from './serialize-node.js';
import type { Canvas, CanvasNode, NodePayload } from './types.js';

/** Where a node goes: right after a sibling, or first into a section or the root. */
export type Anchor = { after: string } | { into: string };

/** A canvas edit, as the store applies it (docs/identity.md). */
export type TreeEdit =
  | { op: 'insert'; id: string; payload: NodePayload; anchor: Anchor }
  | { op: 'replace'; node: string; payload: NodePayload }
  | { op: 'remove'; node: string }
  | { op: 'move'; node: string; anchor: Anchor };

function notFound(ledger: string, id: string, role: string): CanvasError {
  return new CanvasError('NODE_NOT_FOUND', `${role} ${id} is not a node of canvas ${ledger}`, `run \`canvas read ${ledger}\` to see the node ids`, { node: id });
}

/**
 * The children array of a parent in the new tree, copied (with the section holding it, and that
 * section's own holder) the first time the edit writes to it: the input canvas is never changed,
 * and every node the edit does not touch is the very object it was (the guard relies on that).
 */
function writableChildren(next: Canvas, parent: string, copied: Set<string>): CanvasNode[] {
  if (parent === 'root') return next.children;
  const at = indexNodes(next).get(parent);
  if (at?.node.type !== 'section') throw new Error(`not a section: ${parent}`);
  if (copied.has(parent)) return at.node.children;
  const holder = writableChildren(next, at.parent, copied);
  const copy = { ...at.node, children: [...at.node.children] };
  holder[at.index] = copy;
  copied.add(parent);
  return copy.children;
}

function describe(node: CanvasNode): string {
  const head = serializeNode(node, { shallow: true }).split('\n')[0] ?? '';
  return head.length > 72 ? `${head.slice(0, 69)}...` : head;
}

/** The section's children, each with a short description, for refusals that name them. */
function childrenData(section: CanvasNode): { id: string; type: string; text: string }[] {
  return section.type === 'section' ? section.children.map((c) => ({ id: c.id, type: c.type, text: describe(c) })) : [];
}

/** Resolve an anchor to a parent id and an index in it; checks nesting for a section. */
function place(canvas: Canvas, anchor: Anchor, moving: NodePayload | CanvasNode, movingId: string | null): { parent: string; index: number } {
  const index = indexNodes(canvas);
  let parent: string;
  let at: number;
  if ('into' in anchor) {
    if (anchor.into === 'root') {
      parent = 'root';
    } else {
      const target = index.get(anchor.into);
      if (!target) throw notFound(canvas.ledger, anchor.into, 'the --into section');
      if (target.node.type !== 'section') {
        throw new CanvasError('BAD_ANCHOR', `--into ${anchor.into}: it is a ${target.node.type}, and only a section (or root) holds nodes`, `use --after ${anchor.into} to place the node beside it`, {
          anchor: anchor.into,
        });
      }
      parent = anchor.into;
    }
    at = 0;
  } else {
    const sibling = index.get(anchor.after);
    if (!sibling) throw notFound(canvas.ledger, anchor.after, 'the --after node');
    parent = sibling.parent;
    at = sibling.index + 1;
  }
  if (movingId !== null && (parent === movingId || (index.get(parent)?.parent ?? '') === movingId)) {
    throw new CanvasError('MOVE_INTO_SELF', `cannot move ${movingId} into its own subtree`, 'choose an anchor outside the node being moved', { node: movingId });
  }
  if (movingId !== null && 'after' in anchor && anchor.after === movingId) {
    throw new CanvasError('MOVE_INTO_SELF', `cannot move ${movingId} after itself`, 'choose another anchor', { node: movingId });
  }
  if (moving.type === 'section' && parent !== 'root') {
    const holder = index.get(parent);
    const holdsSection = 'children' in moving && moving.children.some((c) => c.type === 'section');
    if (holder?.parent !== 'root' || holdsSection) {
      throw new CanvasError(
        'NESTING',
        holdsSection
          ? `section ${movingId ?? ''} holds sections and cannot go into section ${parent}: sections nest one level`
          : `a section cannot go into section ${parent}, which is itself inside section ${holder?.parent ?? ''}: sections nest one level`,
        'place the section at the root or in a root-level section',
        { parent },
      );
    }
  }
  return { parent, index: at };
}

/**
 * Apply one edit to a copy of a canvas (docs/identity.md). The result still has to pass the
 * one-node guard; this function gives each refusal its own code and a message that names the
 * nodes involved.
 *
 * @param canvas - the canvas at its current revision (not modified)
 * @param edit - the edit; for insert the minted id
 * @returns the new tree and the written node as it now stands (null for remove)
 * @throws CanvasError `NODE_NOT_FOUND`, `BAD_ANCHOR`, `HAS_CHILDREN`, `NESTING`,
 *   `MOVE_INTO_SELF`, `NO_CHANGE`
 */
export function editTree(canvas: Canvas, edit: TreeEdit): { canvas: Canvas; node: CanvasNode | null } {
  // A new root and root list; sections are copied only on the way to what changes.
  const next: Canvas = { ...canvas, children: [...canvas.children] };
  const copied = new Set<string>();
  const childrenList = (c: Canvas, parent: string) => writableChildren(c, parent, copied);
  const index = indexNodes(next);
  switch (edit.op) {
    case 'insert': {
      const { parent, index: at } = place(next, edit.anchor, edit.payload, null);
      const node = { ...structuredClone(edit.payload), id: edit.id, v: 1 } as CanvasNode;
      if (node.type === 'section') node.children = [];
      childrenList(next, parent).splice(at, 0, node);
      return { canvas: next, node };
    }
    case 'replace': {
      const entry = index.get(edit.node);
      if (!entry) throw notFound(canvas.ledger, edit.node, 'the node');
      const old = entry.node;
      const payload = structuredClone(edit.payload);
      if (old.type === 'section' && old.children.length > 0 && payload.type !== 'section') {
        throw new CanvasError(
          'HAS_CHILDREN',
          `section ${old.id} has ${old.children.length} child node(s) and cannot become a ${payload.type}: ${old.children.map((c) => c.id).join(', ')}`,
          `move or remove each child first, one edit each (${old.children.map((c) => `canvas remove ${canvas.ledger} ${c.id} --base <sha> --why "..."`).join('; ')}); or replace only the title: canvas replace ${canvas.ledger} ${old.id} --section "<title>" --base <sha> --why "..."`,
          { node: old.id, children: childrenData(old) },
        );
      }
      if (payload.type === 'section' && entry.parent !== 'root' && index.get(entry.parent)?.parent !== 'root') {
        throw new CanvasError('NESTING', `${old.id} is inside the nested section ${entry.parent} and cannot become a section: sections nest one level`, 'move it to the root first, or keep it a block', {
          node: old.id,
          parent: entry.parent,
        });
      }
      const node = { ...payload, id: old.id, v: old.v + 1 } as CanvasNode;
      if (node.type === 'section') node.children = old.type === 'section' ? old.children : [];
      const before = serializeNode({ ...old, v: 0 } as CanvasNode, { shallow: true });
      const after = serializeNode({ ...node, v: 0 } as CanvasNode, { shallow: true });
      if (before === after) {
        throw new CanvasError('NO_CHANGE', `replace ${old.id} changes nothing: the payload equals the node`, 'send the new content, or skip the write', {
          node: old.id,
        });
      }
      childrenList(next, entry.parent).splice(entry.index, 1, node);
      return { canvas: next, node };
    }
    case 'remove': {
      const entry = index.get(edit.node);
      if (!entry) throw notFound(canvas.ledger, edit.node, 'the node');
      if (entry.node.type === 'section' && entry.node.children.length > 0) {
        const kids = entry.node.children;
        throw new CanvasError(
          'HAS_CHILDREN',
          `section ${entry.node.id} has ${kids.length} child node(s): ${kids.map((c) => `${c.id} (${c.type})`).join(', ')}; remove takes one node`,
          `remove or move each child first, one edit each, each against the latest Canvas-Base: ${kids.map((c) => `canvas remove ${canvas.ledger} ${c.id} --base <sha> --why "..."`).join('; ')}`,
          { node: entry.node.id, children: childrenData(entry.node) },
        );
      }
      childrenList(next, entry.parent).splice(entry.index, 1);
      return { canvas: next, node: null };
    }
    case 'move': {
      const entry = index.get(edit.node);
      if (!entry) throw notFound(canvas.ledger, edit.node, 'the node');
      const node = entry.node;
      const target = place(next, edit.anchor, node, node.id);
      const fromList = childrenList(next, entry.parent);
      fromList.splice(entry.index, 1);
      let at = target.index;
      if (target.parent === entry.parent && entry.index < at) at -= 1;
      if (target.parent === entry.parent && at === entry.index) {
        throw new CanvasError('NO_CHANGE', `move ${node.id} leaves it where it is`, 'name another anchor, or skip the write', { node: node.id });
      }
      const moved = { ...node, v: node.v + 1 } as CanvasNode;
      childrenList(next, target.parent).splice(at, 0, moved);
      return { canvas: next, node: moved };
    }
  }
}
