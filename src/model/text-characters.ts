/**
 * The characters a canvas's text and a reason may hold (docs/schema.md, "Characters"): one rule,
 * written once, for every surface (a payload as XML, as `--text`, as a library object, a reason).
 *
 * - **Text** (character data, attribute values, sugar payloads) holds any Unicode scalar value
 *   XML can hold but the control characters other than tab and line feed: no U+0000-U+0008,
 *   U+000B-U+001F (carriage return included, once line ends are normalized), U+007F-U+009F, no
 *   noncharacter U+FFFE or U+FFFF, no lone surrogate.
 * - **A line** (a reason) holds what text holds but no tab or line feed, no U+2028 or U+2029, and
 *   no bidirectional embedding, override or isolate (U+202A-U+202E, U+2066-U+2069), which make a
 *   line read differently from what it says.
 */

/** What text may not hold (code units, so a lone surrogate is seen). */
const TEXT_BAD = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What a line may not hold (a reason): what text may not, and line breaks, tab and bidirectional controls. */
export const LINE_BAD = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A character a value may not hold, and where. */
export interface BadCharacter {
  /** `U+0008`. */
  codePoint: string;
  /** Its index in the string, in UTF-16 code units. */
  index: number;
  /** What it is, for a message: `a control character`, `a line break`, `a bidirectional control`, `a noncharacter`, `a lone surrogate`. */
  what: string;
}

/**
 * Find the first character a value may not hold (the rule above).
 *
 * @param value - the text
 * @param kind - `text` (character data, attribute values) or `line` (a reason)
 * @returns the first such character, or null when there is none
 */
export function findBadCharacter(value: string, kind: 'text' | 'line'): BadCharacter | null {
  const m = (kind === 'line' ? LINE_BAD : TEXT_BAD).exec(value);
  if (!m) return null;
  const unit = m[0].charCodeAt(0);
  const codePoint = `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
  const what =
    unit >= 0xd800 && unit <= 0xdfff
      ? 'a lone surrogate'
      : unit === 0xfffe || unit === 0xffff
        ? 'a noncharacter'
        : unit === 0x0a || unit === 0x0d || unit === 0x2028 || unit === 0x2029
          ? 'a line break'
          : (unit >= 0x202a && unit <= 0x202e) || (unit >= 0x2066 && unit <= 0x2069)
            ? 'a bidirectional control'
            : 'a control character';
  return { codePoint, index: m.index, what };
}
