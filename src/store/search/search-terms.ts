/**
 * A word of a text as search sees it (docs/search.md, "Ranking"): a run of letters, marks and
 * digits, compared in lower case; everything else (spaces, punctuation, symbols) separates words.
 * The index, the query and the snippet all split text with this one rule, so a highlighted span
 * is exactly a word the index matched.
 */
export interface SearchWord {
  /** The word in lower case: the term the index holds. */
  term: string;
  /** Its offsets in the text, in UTF-16 code units (`text.slice(start, end)` is the word as written). */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Split a text into its words, in order.
 *
 * @param text - any text
 * @returns the words with their offsets; empty when the text has none
 */
export function searchWords(text: string): SearchWord[] {
  return Array.from(text.matchAll(WORD), (m) => ({ term: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/**
 * The terms of a text, in order (what the index is given for a node, and a query is split into).
 *
 * @param text - any text
 * @returns lower-case terms
 */
export function searchTerms(text: string): string[] {
  return searchWords(text).map((w) => w.term);
}

/**
 * Where a text's terms hold the query's terms one after another (docs/search.md, "Ranking"): each
 * as a whole word but the last, which may be the start of one (as the index matches it).
 *
 * @param terms - the text's terms, in order
 * @param phrase - the query's terms, at least one
 * @returns the index of the phrase's first word, or -1 when the text does not hold it
 */
export function phraseAt(terms: readonly string[], phrase: readonly string[]): number {
  const last = phrase.length - 1;
  for (let i = 0; i + last < terms.length; i += 1) {
    if (phrase.every((p, k) => (k === last ? terms[i + k]!.startsWith(p) : terms[i + k] === p))) return i;
  }
  return -1;
}
