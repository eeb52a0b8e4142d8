import { CanvasError } from '../canvas-error.js';
import { NODE_LIMIT } from '../size-limits.js';
import type { NodePayload } from '../types.js';
import { readScene } from './read-scene.js';

/**
 * Make the payload of an Excalidraw figure from a scene file's text (docs/excalidraw.md, "The
 * stored form"): the scene checked and laid out in canonical whitespace, every key kept.
 *
 * @param text - the `.excalidraw` file's text
 * @param caption - the figure's caption, one line (checked by the caller's word check)
 * @returns the figure payload, `{type: 'figure', kind: 'excalidraw', source, caption?}`
 * @throws CanvasError what {@link readScene} throws, and `TOO_LARGE` when the laid-out scene is
 *   more than a node may hold, naming the bytes its embedded images take (`data.files`)
 */
export function scenePayload(text: string, caption: string | undefined): NodePayload {
  const scene = readScene(text);
  const size = Buffer.byteLength(scene.text, 'utf8');
  if (size > NODE_LIMIT) {
    const images = scene.filesBytes > 0 ? `, of which its embedded images (files) take ${scene.filesBytes.toLocaleString('en-US')}` : '';
    throw new CanvasError(
      'TOO_LARGE',
      `the scene is ${size.toLocaleString('en-US')} bytes as stored${images}; a figure, like any node, holds at most ${NODE_LIMIT.toLocaleString('en-US')} bytes (docs/excalidraw.md, "Limits")`,
      'split the sketch into several figures, make embedded pictures smaller, or keep the large material outside the canvas and link to it',
      { size, limit: NODE_LIMIT, files: scene.filesBytes, what: 'node' },
    );
  }
  return { type: 'figure', kind: 'excalidraw', source: scene.text, ...(caption !== undefined ? { caption } : {}) };
}
