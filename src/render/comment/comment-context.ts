import type { RootContent } from 'mdast';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';

/** What every comment handler is given besides its node. */
export interface CommentContext {
  snapshot: Snapshot;
  /** The crossings by node id (`docs/projections.md`, "What all three say"). */
  crossings: ReadonlyMap<string, Crossing>;
  /** The titles of the sections around the node being rendered, outermost first. */
  titles: readonly string[];
  /** Render a section's children, inside the given section titles. */
  renderChildren(children: readonly CanvasNode[], titles: readonly string[]): RootContent[];
}
