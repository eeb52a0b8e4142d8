import type { Canvas } from '../../model/types.js';
import { type CanvasText, type ReadOptions, readCheckedCanvas } from './read-canvas-text.js';
import type { Workspace } from '../repo/workspace.js';

export { type CanvasText, type ReadOptions, readCanvasText } from './read-canvas-text.js';

/** A canvas as read, with its tree. */
export interface CanvasRead extends CanvasText {
  canvas: Canvas;
}

/**
 * Read a canvas at its revision (or at a commit on main) and parse it.
 *
 * @returns ledger, revision, XML and tree
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE`, and what the stored
 *   bytes break: `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
export async function readCanvas(ws: Workspace, options: ReadOptions): Promise<CanvasRead> {
  return readCheckedCanvas(ws, options);
}
