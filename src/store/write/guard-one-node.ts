import { CanvasError } from '../../model/canvas-error.js';
import { type IndexedNode, indexNodes } from '../../model/index-nodes.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { Canvas } from '../../model/types.js';

/** What a write claims to do: the op and the one node it names. */
export interface GuardClaim {
  op: 'create' | 'insert' | 'replace' | 'remove' | 'move' | 'freeze';
  /** The node named in `Canvas-Node` (none for create and freeze). */
  node: string | null;
}

function shallow(e: IndexedNode): string {
  return serializeNode(e.node, { shallow: true });
}

function withoutV(xml: string): string {
  return xml.replace(/^(<\w+ id="[^"]*") v="\d+"/, '$1');
}

function siblingsWithout(index: Map<string, IndexedNode>, skip: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [id, e] of index) {
    if (id === skip) continue;
    const list = out.get(e.parent) ?? [];
    list.push(id);
    out.set(e.parent, list);
  }
  return out;
}

/**
 * The one-node guard (docs/store.md "Writes"): every write calls this with the document at the
 * canvas's current revision and the document about to be written. It refuses unless every node
 * other than the named node N keeps its type, attributes, `v`, character data, parent, and its
 * order among its parent's other children; and N changed exactly as the op says: insert adds it
 * with v=1 (a section empty); replace keeps its parent and position, bumps v, changes content;
 * move keeps content, bumps v, changes place; remove drops it (childless). `create` may produce
 * only the root; `freeze` changes nothing.
 *
 * @param before - the canvas at its current revision (null before create)
 * @param after - the canvas about to be written
 * @param claim - the op and the node it names
 * @throws CanvasError `TWO_NODES` naming every other node that changed, `HAS_CHILDREN`,
 *   `NO_CHANGE`, `SCHEMA` (root attributes changed)
 */
export function guardOneNode(before: Canvas | null, after: Canvas, claim: GuardClaim): void {
  const refuse: (others: string[], detail: string) => never = (others, detail) => {
    throw new CanvasError(
      'TWO_NODES',
      `${claim.op}${claim.node ? ` ${claim.node}` : ''} would change more than the one node it names: ${detail}`,
      'one edit changes one node; split the change into one write per node',
      { node: claim.node, others },
    );
  };
  if (claim.op === 'create') {
    if (before !== null) refuse([], 'the canvas already exists');
    if (after.children.length > 0)
      refuse(
        after.children.map((c) => c.id),
        'create produces the root alone',
      );
    return;
  }
  if (!before) throw new CanvasError('INTERNAL', 'a write other than create needs the current canvas', 'run `canvas verify`');
  if (before.ledger !== after.ledger || before.schema !== after.schema) {
    refuse([], 'the root element changed');
  }
  const a = indexNodes(before);
  const b = indexNodes(after);
  const n = claim.node;
  const others: string[] = [];
  for (const [id, e] of a) {
    if (id === n) continue;
    const f = b.get(id);
    // The same object in both trees is the same node (trees are never changed in place; an edit
    // copies what it changes), so only nodes that are new objects are compared by their bytes.
    if (!f || f.parent !== e.parent || (f.node !== e.node && shallow(f) !== shallow(e))) others.push(id);
  }
  for (const id of b.keys()) {
    if (id !== n && !a.has(id)) others.push(id);
  }
  const sa = siblingsWithout(a, n);
  const sb = siblingsWithout(b, n);
  for (const [parent, list] of sa) {
    const now = sb.get(parent) ?? [];
    if (list.join(' ') !== now.join(' ') && !others.includes(parent)) {
      others.push(...list.filter((id, i) => now[i] !== id && !others.includes(id)));
    }
  }
  if (others.length > 0) refuse([...new Set(others)], `${[...new Set(others)].join(', ')} changed as well`);
  if (claim.op === 'freeze') {
    if (n !== null) refuse([n], 'freeze names no node');
    return;
  }
  if (n === null) {
    refuse([], `${claim.op} names no node`);
    return;
  }
  const was = a.get(n);
  const now = b.get(n);
  switch (claim.op) {
    case 'insert':
      if (was || !now) refuse([n], `insert must add ${n} as a new node`);
      if (now.node.v !== 1) refuse([n], `an inserted node starts at v=1`);
      if (now.node.type === 'section' && now.node.children.length > 0) {
        throw new CanvasError('HAS_CHILDREN', `an inserted section is born empty`, 'insert each child with its own write', { node: n });
      }
      return;
    case 'replace':
      if (!was || !now) refuse([n], `replace keeps ${n}`);
      if (now.parent !== was.parent || now.index !== was.index) refuse([n], `replace keeps ${n} in its place`);
      if (now.node.v !== was.node.v + 1) refuse([n], `replace bumps v by one`);
      if (withoutV(shallow(now)) === withoutV(shallow(was))) {
        throw new CanvasError('NO_CHANGE', `replace ${n} changes nothing`, 'send the new content', { node: n });
      }
      return;
    case 'move':
      if (!was || !now) refuse([n], `move keeps ${n}`);
      if (withoutV(shallow(now)) !== withoutV(shallow(was))) refuse([n], `move keeps the content of ${n}`);
      if (now.node.v !== was.node.v + 1) refuse([n], `move bumps v by one`);
      if (now.parent === was.parent && now.index === was.index) {
        throw new CanvasError('NO_CHANGE', `move ${n} leaves it where it is`, 'name another anchor', { node: n });
      }
      return;
    case 'remove':
      if (!was || now) refuse([n], `remove drops ${n}`);
      if (was.node.type === 'section' && was.node.children.length > 0) {
        throw new CanvasError('HAS_CHILDREN', `section ${n} has children`, 'remove or move each child first', { node: n });
      }
      return;
  }
}
