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

/** MiniSearch's BM25+ of one word in one node, written as MiniSearch writes it so the figures agree. */
function bm25(termFreq: number, matchingCount: number, totalCount: number, fieldLength: number, avgFieldLength: number): number {
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
  return invDocFreq * (D + (termFreq * (K + 1)) / (termFreq + K * (1 - B + (B * fieldLength) / avgFieldLength)));
}

/**
 * One query word's score in each node of the allowed canvases that holds it (the last word also
 * as a start): the word's own score, then each longer word's weighted by its length, summed in
 * that order. `has[n]` is 1 where node `n` holds it.
 */
function wordScores(index: WorkspaceSearchIndex, word: string, prefix: boolean, allowed: Uint8Array): { scores: Float64Array; has: Uint8Array; nodes: number[] } {
  const scores = new Float64Array(index.nodeCount);
  const has = new Uint8Array(index.nodeCount);
  const nodes: number[] = [];
  for (const [derived, w] of index.wordsFrom(word, !prefix)) {
    const weight = derived === word ? 1 : (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * (derived.length - word.length));
    const postings = index.postings(w);
    // MiniSearch's document frequency is of the canvas's own nodes: count them canvas by canvas.
    const counts = new Int32Array(index.canvasCount);
    for (let i = 0; i < postings.length; i += 2) counts[index.canvasAt(postings[i]!)]! += 1;
    for (let i = 0; i < postings.length; i += 2) {
      const n = postings[i]!;
      const c = index.canvasAt(n);
      if (allowed[c] !== 1) continue;
      const raw = bm25(postings[i + 1]!, counts[c]!, index.documentCount(c), index.fieldLength(n), index.averageFieldLength(c));
      scores[n]! += derived === word ? raw : weight * raw;
      if (has[n] === 0) {
        has[n] = 1;
        nodes.push(n);
      }
    }
  }
  return { scores, has, nodes };
}

/**
 * The nodes of the allowed canvases holding every word of a query, each as a start for the last
 * word, scored as MiniSearch scores a search with `combineWith: 'AND'` and the last word as a
 * prefix over that canvas's own index (docs/search.md, "Ranking"): BM25+ per word over the nodes
 * of the node's canvas, a prefix expansion weighted by its length, the words' scores summed in
 * query order and multiplied by the count of distinct query words.
 *
 * @param index - the workspace index
 * @param terms - the query's words, at least one
 * @param allowed - 1 at the place of each canvas to search
 * @returns the matches, in no order
 * @throws Error when the index names a node it does not hold (a corrupt cache: the caller rebuilds)
 */
export function rankNodes(index: WorkspaceSearchIndex, terms: readonly string[], allowed: Uint8Array): NodeMatch[] {
  const words = terms.map((t, i) => wordScores(index, t, i === terms.length - 1, allowed));
  const quality = new Set(terms).size;
  const out: NodeMatch[] = [];
  for (const n of words[0]!.nodes) {
    let score = words[0]!.scores[n]!;
    let all = true;
    for (let i = 1; i < words.length && all; i += 1) {
      if (words[i]!.has[n] === 1) score = score + words[i]!.scores[n]!;
      else all = false;
    }
    if (all) out.push({ node: n, score: score * quality });
  }
  return out;
}
