import { CanvasError } from './canvas-error.js';
import { findBadCharacter } from './text-characters.js';

/** The longest reason, in code points (docs/store.md "Writes"). */
export const MAX_REASON = 500;

/**
 * Check a reason (`--why`): required, one line, no character a line may not hold
 * (docs/schema.md, "Characters": no control character, U+2028/U+2029, bidirectional control,
 * noncharacter or lone surrogate), at most 500 code points. Refused, never sanitized
 * (docs/store.md, "Reason").
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
  const bad = findBadCharacter(reason, 'line');
  if (bad) {
    const unicode = bad.what === 'a lone surrogate' || bad.what === 'a noncharacter';
    throw new CanvasError(
      'BAD_REASON',
      unicode
        ? `reason holds ${bad.what} (${bad.codePoint}) at code point ${[...reason.slice(0, bad.index)].length + 1}, which no text of a canvas may hold`
        : `reason must be a single line with no control characters: it holds ${bad.what} (${bad.codePoint}) at code point ${[...reason.slice(0, bad.index)].length + 1}`,
      hint,
      { rule: unicode ? 'unicode' : 'one-line', codePoint: bad.codePoint },
    );
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
