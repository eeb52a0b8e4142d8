import { phraseAt, searchWords } from './search-terms.js';

/** The marker written each side of a match in a snippet (docs/search.md, "The snippet"). */
export const MATCH_MARKER = '**';

/** How many characters of context a snippet keeps before its first match. */
const BEFORE = 50;

/** How many characters of a node's text a snippet shows at most (the match itself may exceed it). */
const WIDTH = 160;

/** A snippet: the words around the match, on one line, each match between {@link MATCH_MARKER}s. */
export interface SearchSnippet {
  /** The snippet: `…` where the node's text goes on, whitespace runs as one space, matches marked. */
  text: string;
  /** Each marked span of `text` as `[start, end)` offsets (UTF-16), markers excluded. */
  marks: Array<[number, number]>;
}

/** The index of the word where the snippet is anchored: the first whole phrase, else the first match. */
function anchorOf(terms: readonly string[], matched: ReadonlySet<string>, phrase: readonly string[]): number {
  const at = phrase.length > 1 ? phraseAt(terms, phrase) : -1;
  if (at >= 0) return at;
  const i = terms.findIndex((t) => matched.has(t));
  return Math.max(i, 0);
}

/**
 * The snippet of a node's text for a hit (docs/search.md, "The snippet"): a window of at most
 * about 160 characters, cut at word boundaries, opening about 50 characters before the first
 * occurrence of the whole query as a phrase (else before the first matched word), with every word
 * the index matched marked and a run of marked words joined into one mark.
 *
 * @param text - the node's search text
 * @param matched - the terms the index matched in this node (lower case, prefixes expanded)
 * @param phrase - the query's terms, in order
 * @returns the snippet and its marks
 */
export function searchSnippet(text: string, matched: ReadonlySet<string>, phrase: readonly string[]): SearchSnippet {
  const words = searchWords(text);
  if (words.length === 0) return { text: text.replace(/\s+/g, ' ').trim().slice(0, WIDTH), marks: [] };
  const a = anchorOf(
    words.map((w) => w.term),
    matched,
    phrase,
  );
  const anchor = words[a]!;
  const anchorEnd = words[Math.min(a + Math.max(phrase.length, 1) - 1, words.length - 1)]!.end;
  // The first word at most BEFORE characters before the anchor, and the last that ends in the width.
  let first = a;
  while (first > 0 && anchor.start - words[first - 1]!.start <= BEFORE) first -= 1;
  let last = a;
  const from = first === 0 ? 0 : words[first]!.start;
  while (last + 1 < words.length && (words[last + 1]!.end - from <= WIDTH || words[last + 1]!.end <= anchorEnd)) last += 1;
  const to = last === words.length - 1 ? text.length : words[last]!.end;
  let out = from > 0 ? '… ' : '';
  const marks: Array<[number, number]> = [];
  let at = from;
  let open: number | null = null;
  for (let i = first; i <= last; i += 1) {
    const w = words[i]!;
    const spaced = text.slice(at, w.start).replace(/\s+/g, ' ');
    const gap = i === first ? spaced.trimStart() : spaced;
    const hit = matched.has(w.term);
    if (open !== null && (!hit || gap.trim() !== '')) {
      marks.push([open, out.length]);
      out += MATCH_MARKER;
      open = null;
    }
    out += gap;
    if (hit && open === null) {
      out += MATCH_MARKER;
      open = out.length;
    }
    out += text.slice(w.start, w.end);
    at = w.end;
  }
  if (open !== null) {
    marks.push([open, out.length]);
    out += MATCH_MARKER;
  }
  out += text.slice(at, to).replace(/\s+/g, ' ');
  out = out.trimEnd();
  if (to < text.length) out += ' …';
  return { text: out, marks };
}
