import { CanvasError } from '../../model/canvas-error.js';
import type { Rejected } from '../repo/outcome.js';

/**
 * Turn a refusal into the `rejected` outcome (docs/store.md "Outcomes"): its code, message as the reason,
 * hint and data. Anything that is not a refusal (a conflict is returned, never thrown; `NO_ROLE`
 * and internal errors are thrown) is thrown on.
 *
 * @param e - what a write threw
 * @returns the rejected outcome
 * @throws e itself when it is not a CanvasError of kind `rejected`
 */
export function rejectionOf(e: unknown): Rejected {
  if (!(e instanceof CanvasError) || e.kind !== 'rejected') throw e;
  const out: Rejected = { outcome: 'rejected', code: e.code, reason: e.message, hint: e.hint };
  if (Object.keys(e.data).length > 0) out.data = e.data;
  return out;
}
