import type { WorkspaceSearchIndex } from './workspace-search-index.js';

/** MiniSearch's BM25+ parameters and prefix weight, its defaults (the per-canvas index is built with them). */
const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;

/** A node holding every word of a query, with MiniSearch's score. */
export interface NodeMatch {
  /** The node's number in the index. */
  node: number;
  score: number;
}

/** MiniSearch's inverse document frequency of a word held by `matchingCount` of `totalCount` nodes, as MiniSearch writes it. */
function idf(matchingCount: number, totalCount: number): number {
  return Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
}

/** MiniSearch's BM25+ of one word in one node, given the word's {@link idf} in the node's canvas, written as MiniSearch writes it so the figures agree. */
function bm25(invDocFreq: number, termFreq: number, fieldLength: number, avgFieldLength: number): number {
  return invDocFreq * (D + (termFreq * (K + 1)) / (termFreq + K * (1 - B + (B * fieldLength) / avgFieldLength)));
}

/** One query word: each word of the index it stands for (itself, or a longer one), with its weight. */
type Expansion = Array<{ derived: string; weight: number; postings: Int32Array }>;

/** The words a query word stands for: the word itself (weight 1), and as a start (`prefix`) each longer word weighted by its length. */
function expand(index: WorkspaceSearchIndex, word: string, prefix: boolean): Expansion {
  return index.wordsFrom(word, !prefix).map(([derived, w]) => ({
    derived,
    weight: derived === word ? 1 : (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * (derived.length - word.length)),
    postings: index.postings(w),
  }));
}

/**
 * One query word's score in each node of `wanted` that holds it: each word it stands for scored
 * in the order given, summed (the word's own score as it is, a longer word's weighted). The
 * document frequency is of the node's canvas's own nodes, as MiniSearch counts it over a canvas's
 * index, so each word's is counted canvas by canvas, and its logarithm taken once per canvas.
 */
function wordScores(index: WorkspaceSearchIndex, word: string, words: Expansion, wanted: Uint8Array): Float64Array {
  const scores = new Float64Array(index.nodeCount);
  const counts = new Int32Array(index.canvasCount);
  const idfs = new Float64Array(index.canvasCount);
  for (const { derived, weight, postings } of words) {
    counts.fill(0);
    idfs.fill(Number.NaN);
    for (let i = 0; i < postings.length; i += 2) counts[index.canvasAt(postings[i]!)]! += 1;
    for (let i = 0; i < postings.length; i += 2) {
      const n = postings[i]!;
      if (wanted[n] !== 1) continue;
      const c = index.canvasAt(n);
      let f = idfs[c]!;
      if (Number.isNaN(f)) {
        f = idf(counts[c]!, index.documentCount(c));
        idfs[c] = f;
      }
      const raw = bm25(f, postings[i + 1]!, index.fieldLength(n), index.averageFieldLength(c));
      scores[n]! += derived === word ? raw : weight * raw;
    }
  }
  return scores;
}

/**
 * The nodes of the allowed canvases holding every word of a query, each as a start for the last
 * word, scored as MiniSearch scores a search with `combineWith: 'AND'` and the last word as a
 * prefix over that canvas's own index (docs/search.md, "Ranking"): BM25+ per word over the nodes
 * of the node's canvas, a prefix expansion weighted by its length, the words' scores summed in
 * query order and multiplied by the count of distinct query words. Only the nodes holding every
 * word are scored: a common word's other nodes are counted for its document frequency, no more.
 *
 * @param index - the workspace index
 * @param terms - the query's words, at least one
 * @param allowed - 1 at the place of each canvas to search
 * @returns the matches, in no order
 * @throws Error when the index names a node it does not hold (a corrupt cache: the caller rebuilds)
 */
export function rankNodes(index: WorkspaceSearchIndex, terms: readonly string[], allowed: Uint8Array): NodeMatch[] {
  const expanded = terms.map((t, i) => expand(index, t, i === terms.length - 1));
  // How many of the query's words each node of an allowed canvas holds: those holding all are scored.
  const held = new Uint16Array(index.nodeCount);
  const seen = new Uint8Array(index.nodeCount);
  for (const [i, words] of expanded.entries()) {
    for (const { postings } of words) {
      for (let k = 0; k < postings.length; k += 2) {
        const n = postings[k]!;
        if (seen[n] === 1 || held[n] !== i || allowed[index.canvasAt(n)] !== 1) continue;
        seen[n] = 1;
        held[n] = i + 1;
      }
    }
    seen.fill(0);
  }
  const wanted = new Uint8Array(index.nodeCount);
  const nodes: number[] = [];
  // In the order the first word's postings give them, as MiniSearch's AND keeps the first word's order.
  for (const { postings } of expanded[0]!) {
    for (let k = 0; k < postings.length; k += 2) {
      const n = postings[k]!;
      if (held[n] === terms.length && wanted[n] === 0) {
        wanted[n] = 1;
        nodes.push(n);
      }
    }
  }
  const scores = terms.map((t, i) => wordScores(index, t, expanded[i]!, wanted));
  const quality = new Set(terms).size;
  return nodes.map((n) => {
    let score = scores[0]![n]!;
    for (let i = 1; i < scores.length; i += 1) score = score + scores[i]![n]!;
    return { node: n, score: score * quality };
  });
}
