import { parseDiagram } from '../../model/diagram/parse-diagram.js';
import { checkScene } from '../../model/excalidraw/check-scene.js';
import type { NodePayload } from '../../model/types.js';

/**
 * Check a payload's figure at write time (docs/diagram.md, docs/svg.md, docs/excalidraw.md): a `diagram`
 * source must parse, an `svg` must pass the sanitizer unchanged, an `excalidraw` scene must be a
 * checked scene in canonical whitespace. The SVG checker (jsdom and DOMPurify) is imported only
 * when a payload holds an SVG figure, so other writes never load it. A `mermaid` figure needs no
 * check beyond the schema: its source is only ever shown as escaped text.
 *
 * @param payload - the node about to be written
 * @throws CanvasError `DIAGRAM_SYNTAX` with line and column, `UNSAFE_SVG` naming what a sanitizer
 *   would remove and its path, `SCENE_JSON`, `SCENE_INVALID`, `SCENE_LIMIT`, `UNSAFE_SCENE` with the
 *   JSON Pointer of the place
 */
export async function checkFigures(payload: NodePayload): Promise<void> {
  if (payload.type !== 'figure') return;
  if (payload.kind === 'diagram') {
    parseDiagram(payload.source);
  } else if (payload.kind === 'excalidraw') {
    checkScene(payload.source);
  } else if (payload.kind === 'svg' && payload.svg) {
    const { checkSvg } = await import('../../model/svg/check-svg.js');
    await checkSvg(payload.svg, '/figure');
  }
}
