import type { RootContent } from 'mdast';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';

/** What every comment handler is given besides its node. */
export interface CommentContext {
  snapshot: Snapshot;
  /** The crossings by node id (design section 7). */
  crossings: ReadonlyMap<string, Crossing>;
  /** Render a section's children. */
  renderChildren(children: readonly CanvasNode[]): RootContent[];
}
