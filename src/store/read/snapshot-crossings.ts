import { indexNodes } from '../../model/index-nodes.js';
import type { Canvas } from '../../model/types.js';
import type { Crossing } from '../../model/snapshot.js';
import type { CanvasFacts } from '../repo/canvas-facts.js';

/**
 * The nodes of a canvas that crossed between sections (docs/projections.md): each node whose
 * parent now differs from its parent at insert, with the latest move into its current parent.
 *
 * @param canvas - the tree at the snapshot's revision
 * @param facts - the canvas's facts at that revision (its moves)
 * @returns the crossings, in document order
 */
export function snapshotCrossings(canvas: Canvas, facts: CanvasFacts): Crossing[] {
  const crossings: Crossing[] = [];
  for (const [id, e] of indexNodes(canvas)) {
    const m = facts.moves[id];
    if (!m || m.insertedIn === e.parent) continue;
    const last = m.into[e.parent];
    if (last) crossings.push({ node: id, from: m.insertedIn, to: e.parent, commit: last.commit, reason: last.reason });
  }
  return crossings;
}
