import { CanvasError } from '../../model/canvas-error.js';

/**
 * The refusal of a create (or an open) of a canvas that is already there (docs/errors.md,
 * `CANVAS_EXISTS`): the existing canvas is the news, and reading it is the next step.
 *
 * @param ledger - the ledger id
 * @param revision - the canvas's revision (full sha)
 */
export function canvasExists(ledger: string, revision: string): CanvasError {
  return new CanvasError('CANVAS_EXISTS', `canvas ${ledger} already exists (revision ${revision.slice(0, 12)})`, `read it: canvas read ${ledger}`, { ledger });
}
