import { CanvasError } from '../../model/canvas-error.js';
import type { Outcome } from '../repo/outcome.js';
import type { EditContext } from './edit-input.js';

/**
 * Replay an idempotency key (docs/roles.md "Idempotency"): the same key from the same who with the same
 * request returns the original outcome and writes nothing; with another request it is refused.
 *
 * @returns the original outcome, or null when the key is new (or none was given)
 * @throws CanvasError `IDEMPOTENCY_MISMATCH`
 */
export function replayKey(ctx: EditContext): Outcome | null {
  if (ctx.common.idempotencyKey === undefined || !ctx.facts) return null;
  const seen = ctx.facts.keys[`${ctx.author.who} ${ctx.common.idempotencyKey}`];
  if (!seen) return null;
  if (seen.request !== ctx.request) {
    throw new CanvasError(
      'IDEMPOTENCY_MISMATCH',
      `idempotency key ${ctx.common.idempotencyKey} was used by ${ctx.author.who} for another request (commit ${seen.commit.slice(0, 12)})`,
      'use a new key for a new request',
      { key: ctx.common.idempotencyKey, commit: seen.commit },
    );
  }
  if (seen.proposal && seen.op === 'propose') {
    return { outcome: 'proposed', proposalId: seen.proposal, revision: seen.commit, replayed: true };
  }
  return { outcome: 'applied', revision: seen.commit, node: seen.node, diff: [], replayed: true };
}
