import { phraseAt, searchTerms } from './search-terms.js';

const NOT_WORD = '[^\\p{L}\\p{M}\\p{N}]';

/**
 * A test of whether a text holds a query's words one after another (docs/search.md, "Ranking"),
 * answering as `phraseAt(searchTerms(text), phrase) >= 0` does without splitting the text: one
 * regular expression over the lower-cased text (a word starts where no letter, mark or digit is
 * before it; the words are parted by a run of anything else; the last may be the start of a word).
 * Lower-casing a whole text gives each word as lower-casing it alone does except for a capital
 * sigma, whose small form depends on what follows: a text holding one is split as the index splits it.
 *
 * @param phrase - the query's words (lower case), at least one
 * @returns the test
 */
export function phraseMatcher(phrase: readonly string[]): (text: string) => boolean {
  const escaped = phrase.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<!${NOT_WORD.replace('[^', '[')})${escaped.join(`${NOT_WORD}+`)}`, 'u');
  return (text) => (text.includes('Σ') ? phraseAt(searchTerms(text), phrase) >= 0 : re.test(text.toLowerCase()));
}
