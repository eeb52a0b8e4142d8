// Stand-in so this branch builds until the comment renderer lands on main; the real module
// replaces this file when main is merged in.
import { CanvasError } from '../../model/canvas-error.js';
import type { Snapshot } from '../../model/snapshot.js';

/** Render a canvas snapshot as the comment's Markdown (not available on this branch yet). */
export function renderComment(snapshot: Snapshot): string {
  throw new CanvasError('INTERNAL', `the comment renderer is not part of this build; cannot render ${snapshot.ledger}`, 'build from main');
}
