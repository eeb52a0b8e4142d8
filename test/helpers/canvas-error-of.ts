import { CanvasError } from '../../src/model/canvas-error.js';

/**
 * The CanvasError a promise rejects with; a fulfilled promise, or any other rejection, fails the
 * test.
 *
 * @param p - the call under test
 */
export async function canvasErrorOf(p: Promise<unknown>): Promise<CanvasError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  throw new Error('expected a CanvasError');
}
