import { CanvasError } from '../../model/canvas-error.js';
import { indexNodes } from '../../model/index-nodes.js';
import type { Canvas } from '../../model/types.js';

/**
 * The scene of one Excalidraw figure, to save as a `.excalidraw` file and open in Excalidraw
 * (docs/excalidraw.md, "Export and import"): the stored scene text, every key as it was given,
 * and one final line feed. Giving the file back to `replace` changes nothing (`NO_CHANGE`).
 *
 * @param canvas - the canvas tree (a snapshot's `canvas`)
 * @param figure - the figure's node id
 * @returns the scene file's text
 * @throws CanvasError `NODE_NOT_FOUND` when the canvas has no node of that id; `USAGE` when the
 *   node is not a figure of kind excalidraw
 */
export function exportScene(canvas: Canvas, figure: string): string {
  const place = indexNodes(canvas).get(figure);
  if (!place) {
    throw new CanvasError('NODE_NOT_FOUND', `canvas ${canvas.ledger} has no node ${figure}`, `run \`canvas read ${canvas.ledger} --type figure\` for the figures' ids`, {
      missing: [figure],
    });
  }
  const { node } = place;
  if (node.type !== 'figure' || node.kind !== 'excalidraw') {
    const what = node.type === 'figure' ? `a ${node.kind} figure` : `a ${node.type}`;
    throw new CanvasError(
      'USAGE',
      `node ${figure} is ${what}, not an Excalidraw figure: only a scene exports as --format excalidraw`,
      `run \`canvas render ${canvas.ledger}\` for the page, or name a figure of kind excalidraw`,
      {
        node: figure,
      },
    );
  }
  return `${node.source}\n`;
}
