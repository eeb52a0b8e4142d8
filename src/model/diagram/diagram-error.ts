import { CanvasError } from '../canvas-error.js';
import type { DiagramPosition } from './diagram-types.js';

/**
 * Build the `DIAGRAM_SYNTAX` error of a diagram source (docs/diagram.md): the message starts with
 * the 1-based line and column, `data` carries them as numbers.
 *
 * @param at - where the problem is
 * @param what - what is wrong, one line
 * @param fix - the fix, one line
 * @returns the error, to throw
 */
export function diagramError(at: DiagramPosition, what: string, fix: string): CanvasError {
  return new CanvasError('DIAGRAM_SYNTAX', `line ${at.line}, column ${at.column}: ${what}`, `${fix} (docs/diagram.md)`, {
    line: at.line,
    column: at.column,
  });
}
