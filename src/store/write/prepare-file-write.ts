import type { WriteRequest } from './write-requests.js';
import { checkCommon } from './check-common.js';
import type { PreparedWrite } from './edit-input.js';
import { hashRequest } from './request-hash.js';

/**
 * Describe a write that commits files only, not the document (a grant or a revoke, a proposal's
 * rejection), as the write sequence takes it (docs/store.md, "Writes"): what every write carries,
 * checked before anything is touched, and the hash of the request its idempotency key is held to.
 *
 * @param req - ledger, reason, author, idempotency key
 * @param op - the operation, the commit's `Canvas-Op`
 * @param parts - what the request is, from the checked ledger id and reason, hashed as given (its
 *   keys in order: a recorded `Canvas-Request` is compared with the same hash of a retry)
 * @param other - the command's other argument (a proposal id), named when the arguments look swapped
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_REASON`, `BAD_AUTHOR`, `USAGE`
 */
export function prepareFileWrite(req: WriteRequest, op: 'grant' | 'revoke' | 'reject', parts: (ledger: string, why: string) => Record<string, unknown>, other?: string): PreparedWrite {
  const { ledger, why, author } = checkCommon(req);
  return { ledger, why, author, operation: { touches: 'files', op, other }, request: hashRequest(parts(ledger, why)), common: req };
}
