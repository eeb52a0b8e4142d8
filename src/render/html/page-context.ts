import type { ElementContent } from 'hast';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import type { CanvasLinkTarget } from '../../model/canvas-link.js';
import type { CanvasNode } from '../../model/types.js';
import type { FigureDrawings } from '../figures/draw-figures.js';

/** What every HTML handler is given besides its node. */
export interface PageContext {
  snapshot: Snapshot;
  /** The crossings by node id (`docs/projections.md`, "What all three say"). */
  crossings: ReadonlyMap<string, Crossing>;
  /** The figures drawn before rendering, by figure id (from `drawFigures`). */
  figures: FigureDrawings;
  /**
   * The address of another canvas's page (or of a node on it) relative to this page, on a page of
   * a site; null on a standalone page, which has no site around it (docs/links.md, "Canvas links").
   */
  canvasHref: ((target: CanvasLinkTarget) => string) | null;
  /** Section nesting of the node being rendered: 0 at the top level, 1 inside a section. */
  depth: number;
  /** Render a section's children one level deeper. */
  renderChildren(children: readonly CanvasNode[], depth: number): ElementContent[];
}
