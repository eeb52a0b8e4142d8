import { DOC_CONTROL } from '../model/patterns.js';

const CONTROL_ALL = new RegExp(DOC_CONTROL.source, 'gu');

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Make Markdown source safe to map (docs/import.md, "Characters"): drop a leading byte order
 * mark, turn CRLF and CR into LF (as XML would), and drop every control character the schema
 * refuses (docs/schema.md: C0 but tab and line feed, DEL, C1), reporting each with its line.
 * Line numbers are unchanged by this.
 *
 * @param markdown - the source as read
 * @param report - called once per dropped character with its 1-based line and a sentence
 * @returns the cleaned source
 */
export function cleanSource(markdown: string, report: (line: number, what: string) => void): string {
  const lines = markdown
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  return lines
    .map((text, i) =>
      text.replace(CONTROL_ALL, (ch) => {
        report(i + 1, `control character ${codePoint(ch)} dropped (the schema refuses it)`);
        return '';
      }),
    )
    .join('\n');
}

/**
 * Clean one string of a node the same way (for values that did not come from the source bytes:
 * YAML escapes, numeric character references): CR to LF, refused control characters dropped
 * and reported at the block's line.
 *
 * @param value - the string
 * @param line - the block's 1-based line, for the report
 * @param report - called once per dropped character
 * @returns the cleaned string
 */
export function cleanText(value: string, line: number, report: (line: number, what: string) => void): string {
  return value.replace(/\r\n?/g, '\n').replace(CONTROL_ALL, (ch) => {
    report(line, `control character ${codePoint(ch)} dropped (the schema refuses it)`);
    return '';
  });
}
