import type { Canvas, CanvasNode } from './types.js';

/** A node's place in its canvas. */
export interface IndexedNode {
  node: CanvasNode;
  /** The parent: a section id, or `root`. */
  parent: string;
  /** Position among the parent's children, from 0. */
  index: number;
  /** Position in document order, from 0. */
  order: number;
}

/**
 * Index every node of a canvas by id, with its parent and position.
 *
 * @param canvas - the tree
 * @returns a map from node id to its place, in document order
 */
export function indexNodes(canvas: Canvas): Map<string, IndexedNode> {
  const out = new Map<string, IndexedNode>();
  let order = 0;
  const walk = (children: readonly CanvasNode[], parent: string): void => {
    children.forEach((node, index) => {
      out.set(node.id, { node, parent, index, order: order++ });
      if (node.type === 'section') walk(node.children, node.id);
    });
  };
  walk(canvas.children, 'root');
  return out;
}
