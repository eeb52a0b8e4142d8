import { CanvasError } from './canvas-error.js';

/** The longest search query, in characters (docs/search.md, "Limits"). */
const MAX_QUERY_CHARACTERS = 1000;

/** The most words a search query may hold (docs/search.md, "Limits"). */
const MAX_QUERY_WORDS = 64;

/** A word as search splits text: a run of letters, marks and digits (docs/search.md, "Ranking"). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Refuse a search query over its limits before any work (docs/search.md, "Limits"): at most
 * {@link MAX_QUERY_CHARACTERS} characters, counted before it is split, and at most
 * {@link MAX_QUERY_WORDS} words. A search costs memory and time for each word of its query, so an
 * unbounded one could stall a long-lived server; these limits are far beyond any question a
 * person or an agent asks.
 *
 * @param query - the query as the caller gave it (not a string is left to the caller's own check)
 * @throws CanvasError `TOO_LONG` with `data.argument` (`query`), `data.limit`, `data.unit`, `data.size`
 */
export function checkSearchQuery(query: unknown): void {
  if (typeof query !== 'string') return;
  const refuse = (size: number, limit: number, unit: 'characters' | 'words') =>
    new CanvasError(
      'TOO_LONG',
      `the search query is ${unit === 'words' ? 'more than ' : ''}${(unit === 'words' ? limit : size).toLocaleString('en-US')} ${unit}; a query holds at most ${limit.toLocaleString('en-US')} ${unit}`,
      'search for the few words that matter (canvas search plan rollout), not a whole text',
      { argument: 'query', limit, unit, size },
    );
  if (query.length > MAX_QUERY_CHARACTERS) throw refuse(query.length, MAX_QUERY_CHARACTERS, 'characters');
  let words = 0;
  for (const _ of query.matchAll(WORD)) {
    words += 1;
    if (words > MAX_QUERY_WORDS) throw refuse(words, MAX_QUERY_WORDS, 'words');
  }
}
