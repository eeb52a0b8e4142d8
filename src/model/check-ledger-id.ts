import { CanvasError } from './canvas-error.js';
import { LEDGER_ID } from './patterns.js';

/**
 * Check a ledger id before any file is touched (design section 1): `^[a-z0-9][a-z0-9._-]{0,63}$`
 * and not ending in `.xml`.
 *
 * @param ledger - the caller's ledger id
 * @returns the ledger id, unchanged
 * @throws CanvasError `BAD_LEDGER_ID`
 */
export function checkLedgerId(ledger: string | undefined): string {
  if (ledger === undefined || !LEDGER_ID.test(ledger) || ledger.endsWith('.xml')) {
    throw new CanvasError(
      'BAD_LEDGER_ID',
      `"${ledger ?? ''}" is not a ledger id: it must match ^[a-z0-9][a-z0-9._-]{0,63}$ and not end in .xml`,
      'use the ledger row id, lower case, for example fix-login-3',
      { ledger },
    );
  }
  return ledger;
}
