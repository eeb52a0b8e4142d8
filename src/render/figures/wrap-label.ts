/**
 * Text measurement without a font engine: a deterministic estimate of a label's width in em, from
 * coarse character classes, erring wide so a box holds its text in common sans-serif fonts.
 */

const NARROW = new Set([..."il.,:;'!|`"]);
const SLIM = new Set([...'fjrtI()[]{}/\\-"']);
const WIDE = new Set([...'mwMW@%']);

/** East Asian wide and emoji ranges: one em each. */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

function charEm(c: string): number {
  if (c === ' ') return 0.33;
  if (NARROW.has(c)) return 0.3;
  if (SLIM.has(c)) return 0.4;
  if (WIDE.has(c)) return 0.9;
  if (c >= 'A' && c <= 'Z') return 0.7;
  return isWide(c.codePointAt(0)!) ? 1 : 0.62;
}

function textEm(text: string): number {
  let em = 0;
  for (const c of text) em += charEm(c);
  return em;
}

/** A label broken into lines, with the estimated width of the widest line. */
export interface WrappedLabel {
  lines: string[];
  /** Estimated width in px at the given font size. */
  width: number;
}

/**
 * Break a label into lines no wider than `maxWidth` (estimated): greedy at spaces, a word wider
 * than a line is split between characters. Runs of whitespace become one space.
 *
 * @param label - the label text (one line)
 * @param fontSize - px
 * @param maxWidth - px
 * @returns the lines and the widest line's estimated width in px
 */
export function wrapLabel(label: string, fontSize: number, maxWidth: number): WrappedLabel {
  const maxEm = maxWidth / fontSize;
  const lines: string[] = [];
  let line = '';
  const push = (): void => {
    if (line !== '') lines.push(line);
    line = '';
  };
  for (const word of label.split(/\s+/).filter((w) => w !== '')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (textEm(joined) <= maxEm) {
      line = joined;
      continue;
    }
    push();
    if (textEm(word) <= maxEm) {
      line = word;
      continue;
    }
    for (const c of word) {
      if (line !== '' && textEm(line + c) > maxEm) push();
      line += c;
    }
  }
  push();
  if (lines.length === 0) lines.push(label.trim());
  const width = Math.max(...lines.map((l) => textEm(l))) * fontSize;
  return { lines, width };
}
