/** The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const FSI = '\u2068';
const PDI = '\u2069';

/** One line (one bidi paragraph: a line feed ends every embedding and isolate) kept inside itself. */
function isolateLine(line: string): string {
  if (!BIDI_CONTROL.test(line)) return line;
  let open = 0;
  let stray = 0;
  for (const ch of line) {
    if (ch === '\u2066' || ch === '\u2067' || ch === FSI) open++;
    else if (ch === PDI) {
      if (open > 0) open--;
      else stray++;
    }
  }
  // One FSI of our own, plus one for every PDI of the text that has no initiator of its own (it
  // would close ours early); then a PDI for every isolate the text leaves open, and ours. The
  // closing PDI also ends every embedding and override opened inside (Unicode's bidi algorithm).
  return FSI.repeat(stray + 1) + line + PDI.repeat(open + 1);
}

/**
 * Keep the effect of a node's bidirectional controls inside the node (docs/projections.md,
 * "Bidirectional text"): text holding an embedding, override or isolate (U+202A-U+202E,
 * U+2066-U+2069) has each of its lines wrapped between U+2068 FIRST STRONG ISOLATE and U+2069 POP
 * DIRECTIONAL ISOLATE, with one more of either for every unmatched control of the text, so nothing
 * it holds can reorder the ids, markers and reasons printed around it. Text without such a
 * control is returned as it is, so ordinary text (right-to-left letters included) is unchanged.
 *
 * @param text - a node's text (a line feed ends a bidi paragraph: each line is wrapped alone)
 * @returns the text, isolated line by line when it holds a bidirectional control
 */
export function isolateBidi(text: string): string {
  if (!BIDI_CONTROL.test(text)) return text;
  return text.split('\n').map(isolateLine).join('\n');
}
