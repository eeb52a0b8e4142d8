import type { Crossing } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';

/** What every prompt handler is given besides its node. */
export interface TextContext {
  /** The crossings by node id (`docs/projections.md`, "What all three say"). */
  crossings: ReadonlyMap<string, Crossing>;
  /** Section nesting of the node: 0 at the top level. */
  depth: number;
  /** Render a section's children one level deeper. */
  renderChildren(children: readonly CanvasNode[], depth: number): string[];
}
