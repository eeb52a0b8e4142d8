import { CanvasError } from './canvas-error.js';
import { LEDGER_ID } from './patterns.js';

/**
 * Whether a string is a ledger id (docs/store.md "Workspace"): `^[a-z0-9][a-z0-9._-]{0,63}$`, not ending
 * in `.xml`; and, because it names the git ref `refs/canvas/<ledger>`, holding no `..` and not
 * ending in `.` or `.lock` (git's ref-name rules; docs/store.md).
 */
export function isLedgerId(ledger: unknown): ledger is string {
  return typeof ledger === 'string' && LEDGER_ID.test(ledger) && !ledger.endsWith('.xml') && !ledger.includes('..') && !ledger.endsWith('.') && !ledger.endsWith('.lock');
}

/**
 * Check a ledger id before any file is touched (docs/store.md "Workspace", {@link isLedgerId}).
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

/**
 * Ledger ids the static site uses for its own files (docs/site.md, "Reserved ledger ids"): a
 * canvas of that id would put its folder where the site's index page is.
 */
export const RESERVED_LEDGER_IDS: readonly string[] = ['index.html'];

/**
 * Check the ledger id of a canvas about to be created: a ledger id ({@link checkLedgerId}) that
 * is not one the site reserves ({@link RESERVED_LEDGER_IDS}).
 *
 * @param ledger - the caller's ledger id
 * @returns the ledger id, unchanged
 * @throws CanvasError `BAD_LEDGER_ID` (`data.rule` is `reserved` for a reserved id)
 */
export function checkNewLedgerId(ledger: unknown): string {
  const id = checkLedgerId(ledger);
  if (RESERVED_LEDGER_IDS.includes(id)) {
    throw new CanvasError(
      'BAD_LEDGER_ID',
      `${JSON.stringify(id)} is reserved: the static site writes its own ${id} where this canvas's folder would go`,
      `choose another ledger id; reserved: ${RESERVED_LEDGER_IDS.join(', ')} (docs/site.md)`,
      { ledger: id, rule: 'reserved' },
    );
  }
  return id;
}
