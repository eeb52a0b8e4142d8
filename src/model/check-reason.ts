import { CanvasError } from './canvas-error.js';
import { BIDI_CONTROL, LONE_SURROGATE, REASON_CONTROL } from './patterns.js';

/** The longest reason, in code points (docs/store.md "Writes"). */
export const MAX_REASON = 500;

/**
 * Check a reason (`--why`): required, one line, no control character (U+0000-U+001F,
 * U+007F-U+009F) nor U+2028/U+2029 nor a bidirectional override or isolate (U+202A-U+202E,
 * U+2066-U+2069), well-formed Unicode (no lone surrogate), at most 500 code points. Refused,
 * never sanitized (docs/store.md, "Reason").
 *
 * @param reason - the caller's text, or undefined when missing
 * @returns the reason, unchanged
 * @throws CanvasError `BAD_REASON`
 */
export function checkReason(reason: unknown): string {
  const hint = 'give the reason (--why, or the why argument) as one plain line that says why this edit is made';
  if (reason !== undefined && typeof reason !== 'string') {
    throw new CanvasError('BAD_REASON', `a reason is a string, not ${reason === null ? 'null' : typeof reason}`, hint, { rule: 'required' });
  }
  if (reason === undefined || reason.trim() === '') {
    throw new CanvasError('BAD_REASON', 'a reason is required and must not be blank', hint, { rule: 'required' });
  }
  const m = REASON_CONTROL.exec(reason);
  if (m) {
    const cp = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const what =
      m[0] === '\n' || m[0] === '\r' || m[0] === '\u2028' || m[0] === '\u2029'
        ? 'a line break'
        : BIDI_CONTROL.test(m[0])
          ? 'a bidirectional control'
          : 'a control character';
    throw new CanvasError(
      'BAD_REASON',
      `reason must be a single line with no control characters: it holds ${what} (${cp}) at code point ${[...reason.slice(0, m.index)].length + 1}`,
      hint,
      { rule: 'one-line', codePoint: cp },
    );
  }
  if (LONE_SURROGATE.test(reason)) {
    throw new CanvasError('BAD_REASON', 'reason holds a lone surrogate (not valid Unicode text)', hint, { rule: 'unicode' });
  }
  const length = [...reason].length;
  if (length > MAX_REASON) {
    throw new CanvasError('BAD_REASON', `reason is ${length} code points long; the limit is ${MAX_REASON}`, 'shorten the reason to one sentence', {
      rule: 'length',
      length,
    });
  }
  return reason;
}
