import { indexNodes } from './index-nodes.js';
import { serializeNode } from './serialize-node.js';
import type { Canvas, NodeType } from './types.js';

/** One side of a node's change: its canonical XML (a section without children), place and v. */
export interface NodeState {
  type: NodeType;
  v: number;
  parent: string;
  xml: string;
}

/**
 * One node that differs between two revisions (docs/diff.md).
 * `change` is `inserted`, `removed`, `replaced` (its content differs; it may also have moved) or
 * `moved` (same content, another place or a bumped v).
 */
export interface NodeChange {
  node: string;
  change: 'inserted' | 'removed' | 'replaced' | 'moved';
  before: NodeState | null;
  after: NodeState | null;
}

function stateOf(entry: { node: import('./types.js').CanvasNode; parent: string }): NodeState {
  return {
    type: entry.node.type,
    v: entry.node.v,
    parent: entry.parent,
    xml: serializeNode(entry.node, { shallow: true }).trimEnd(),
  };
}

function contentOf(xml: string): string {
  return xml.replace(/^(<\w+ id="[^"]*") v="\d+"/, '$1');
}

/**
 * The node-level diff of two revisions of one canvas (docs/diff.md). A section is compared
 * without its children, which are nodes of their own; a node whose only difference is its
 * position among unchanged siblings (because a sibling came or went) is not a change.
 *
 * @param before - the older tree, or null when the canvas did not exist
 * @param after - the newer tree, or null when it does not exist
 * @returns the changed nodes: those of `after` in document order, then removed ones
 */
export function diffCanvases(before: Canvas | null, after: Canvas | null): NodeChange[] {
  const a = before ? indexNodes(before) : new Map();
  const b = after ? indexNodes(after) : new Map();
  const out: NodeChange[] = [];
  for (const [id, entry] of b) {
    const old = a.get(id);
    const now = stateOf(entry);
    if (!old) {
      out.push({ node: id, change: 'inserted', before: null, after: now });
      continue;
    }
    const was = stateOf(old);
    if (was.xml === now.xml && was.parent === now.parent) continue;
    const change = contentOf(was.xml) !== contentOf(now.xml) ? 'replaced' : 'moved';
    out.push({ node: id, change, before: was, after: now });
  }
  for (const [id, entry] of a) {
    if (!b.has(id)) out.push({ node: id, change: 'removed', before: stateOf(entry), after: null });
  }
  return out;
}

/**
 * A node's state as a diff reports it (docs/diff.md): its type, v, parent and canonical XML, a
 * section without its children.
 *
 * @param node - the node
 * @param parent - its parent's id, or `root`
 */
export function nodeState(node: import('./types.js').CanvasNode, parent: string): NodeState {
  return stateOf({ node, parent });
}

/**
 * One node's change from one state to another (docs/diff.md), as {@link diffCanvases} reports it.
 *
 * @param id - the node
 * @param was - its state before, or null when it was absent
 * @param now - its state after, or null when it is absent
 * @returns its change, or null when both are the same (or both absent)
 */
export function changeOf(id: string, was: NodeState | null, now: NodeState | null): NodeChange | null {
  if (!was && !now) return null;
  if (!was) return { node: id, change: 'inserted', before: null, after: now };
  if (!now) return { node: id, change: 'removed', before: was, after: null };
  if (was.xml === now.xml && was.parent === now.parent) return null;
  return { node: id, change: contentOf(was.xml) !== contentOf(now.xml) ? 'replaced' : 'moved', before: was, after: now };
}

/**
 * One node's change between two revisions (docs/diff.md), as {@link diffCanvases} reports it,
 * without comparing the rest: what a commit that names one node did to it.
 *
 * @param before - the older tree, or null
 * @param after - the newer tree, or null
 * @param id - the node
 * @returns its change, or null when it is the same in both (or in neither)
 */
export function diffNode(before: Canvas | null, after: Canvas | null, id: string): NodeChange | null {
  const old = before ? indexNodes(before).get(id) : undefined;
  const now = after ? indexNodes(after).get(id) : undefined;
  return changeOf(id, old ? stateOf(old) : null, now ? stateOf(now) : null);
}
