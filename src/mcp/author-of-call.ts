import { CanvasError } from '../model/canvas-error.js';
import { AUTHOR_PART } from '../model/patterns.js';

/**
 * Build the author of a write from the server's identity and a call's optional `step` and `run`
 * (docs/store.md "Writes": `<who>[ | step:<step>][ | run:<run>]`). The who is always the server's
 * `--as`: a call cannot write as anyone else.
 *
 * @param who - the server's identity
 * @param step - the call's `step` argument, if any
 * @param run - the call's `run` argument, if any
 * @returns the author text the store records as `Canvas-Author`
 * @throws CanvasError `BAD_AUTHOR` when `step` or `run` is not `^[A-Za-z0-9][A-Za-z0-9._@:-]*$`
 */
export function authorOfCall(who: string, step: string | undefined, run: string | undefined): string {
  for (const [name, value] of [
    ['step', step],
    ['run', run],
  ] as const) {
    if (value !== undefined && !AUTHOR_PART.test(value)) {
      throw new CanvasError('BAD_AUTHOR', `${name} ${JSON.stringify(value)} does not match ^[A-Za-z0-9][A-Za-z0-9._@:-]*$`, `pass a plain token as ${name}, or leave it out`, {
        rule: name,
      });
    }
  }
  return [who, step !== undefined ? `step:${step}` : '', run !== undefined ? `run:${run}` : ''].filter(Boolean).join(' | ');
}
