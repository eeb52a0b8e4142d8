import { indexNodes } from '../model/index-nodes.js';
import type { Canvas } from '../model/types.js';

/**
 * Name a parent for a reader (a crossing says where a node came from): `the top level` for root,
 * the section's title and id when it is still in the canvas, else the id alone.
 *
 * @param canvas - the tree at the rendered revision
 * @param parent - a section id or `root`
 * @returns words such as `section “Options” (s1)`
 */
export function placeName(canvas: Canvas, parent: string): string {
  if (parent === 'root') return 'the top level';
  const found = indexNodes(canvas).get(parent);
  if (found && found.node.type === 'section') return `section “${found.node.title}” (${parent})`;
  return `section ${parent} (since removed)`;
}
