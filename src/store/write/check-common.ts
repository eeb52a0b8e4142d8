import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { checkReason } from '../../model/check-reason.js';
import { parseAuthor, type Author } from '../../model/parse-author.js';
import type { WriteCommon } from './edit-input.js';

const KEY = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Check what every write carries before anything is touched: the ledger id, the reason, the
 * author and the idempotency key's form.
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_REASON`, `BAD_AUTHOR`, `USAGE`
 */
export function checkCommon(common: WriteCommon): { ledger: string; why: string; author: Author } {
  const ledger = checkLedgerId(common.ledger);
  const why = checkReason(common.why);
  const author = parseAuthor(common.author);
  if (common.idempotencyKey !== undefined && !KEY.test(common.idempotencyKey)) {
    throw new CanvasError('USAGE', `idempotency key "${common.idempotencyKey}" must match ^[A-Za-z0-9._:-]{1,128}$`, 'use a short token such as a UUID');
  }
  return { ledger, why, author };
}
