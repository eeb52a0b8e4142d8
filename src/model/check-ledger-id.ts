import { CanvasError } from './canvas-error.js';
import { LEDGER_ID } from './patterns.js';

/**
 * Whether a string is a ledger id (design section 1): `^[a-z0-9][a-z0-9._-]{0,63}$`, not ending
 * in `.xml`; and, because it names the git ref `refs/canvas/<ledger>`, holding no `..` and not
 * ending in `.` or `.lock` (git's ref-name rules; docs/store.md).
 */
export function isLedgerId(ledger: unknown): ledger is string {
  return (
    typeof ledger === 'string' &&
    LEDGER_ID.test(ledger) &&
    !ledger.endsWith('.xml') &&
    !ledger.includes('..') &&
    !ledger.endsWith('.') &&
    !ledger.endsWith('.lock')
  );
}

/**
 * Check a ledger id before any file is touched (design section 1, {@link isLedgerId}).
 *
 * @param ledger - the caller's ledger id
 * @returns the ledger id, unchanged
 * @throws CanvasError `BAD_LEDGER_ID`
 */
export function checkLedgerId(ledger: unknown): string {
  if (!isLedgerId(ledger)) {
    const shown = typeof ledger === 'string' ? JSON.stringify(ledger) : `a ${ledger === null ? 'null' : typeof ledger}`;
    throw new CanvasError(
      'BAD_LEDGER_ID',
      `${shown} is not a ledger id: it must match ^[a-z0-9][a-z0-9._-]{0,63}$, not end in .xml, . or .lock, and hold no ..`,
      'use the ledger row id, lower case, for example fix-login-3',
      { ledger },
    );
  }
  return ledger;
}
