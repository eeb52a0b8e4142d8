import type { Ending } from './snapshot.js';

/**
 * How every projection words an ending (docs/store.md, "Endings"): `frozen at <sha>: <reason>`,
 * `abandoned at <sha>: <reason>`, and, when the document was edited after it, `frozen at <sha>;
 * edited since: <reason>`. The reason is always the ending's own. Given in two parts around the
 * sha, so that the page and the comment can show the sha as code.
 *
 * @param ending - the ending's kind, reason and whether it was edited since
 * @returns `lead` (`frozen at `) and `tail` (`; edited since: <reason>`); the line is
 *   `lead + sha + tail`, with the sha whole on the page, the comment and the prompt, short in
 *   `canvas list` and on the index
 */
export function endingLine(ending: Pick<Ending, 'kind' | 'reason' | 'editedSince'>): { lead: string; tail: string } {
  return { lead: `${ending.kind} at `, tail: `${ending.editedSince ? '; edited since' : ''}: ${ending.reason}` };
}
