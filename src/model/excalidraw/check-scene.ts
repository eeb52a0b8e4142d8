import { CanvasError } from '../canvas-error.js';
import { readScene } from './read-scene.js';

/**
 * Check a stored or written Excalidraw figure's source (docs/excalidraw.md, "What is refused"):
 * a scene {@link readScene} accepts, already in canonical whitespace, as the store writes it.
 *
 * @param source - the figure's source text
 * @throws CanvasError what {@link readScene} throws; `SCENE_INVALID` (`data.rule` "layout") for a
 *   scene whose whitespace is not canonical (a tree handed to the library as it is, or a file
 *   committed by hand)
 */
export function checkScene(source: string): void {
  const scene = readScene(source);
  if (scene.text === source) return;
  let at = 0;
  while (at < source.length && source[at] === scene.text[at]) at += 1;
  throw new CanvasError(
    'SCENE_INVALID',
    `the scene is not laid out in canonical whitespace: it differs from the canonical text at character ${at + 1}`,
    'give the scene as an excalidraw payload ({ excalidraw: text } or --excalidraw-file), which lays it out (docs/excalidraw.md, "The stored form")',
    { path: '/', rule: 'layout', offset: at },
  );
}
