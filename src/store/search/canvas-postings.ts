import type { NodeType } from '../../model/types.js';

/**
 * One canvas's share of the workspace search index (docs/search.md, "The index cache"): what
 * BM25+ over the nodes of that canvas needs, taken from its MiniSearch index, with the nodes in
 * document order.
 */
export interface CanvasPostings {
  ledger: string;
  /** The canvas's revision the index is of. */
  revision: string;
  /** The identity of its cache file when it was read or written (`ino:size:ctime`), '' when unknown. */
  stamp: string;
  /** How many nodes the canvas has (MiniSearch's document count). */
  documentCount: number;
  /** The mean count of distinct words in a node's text (MiniSearch's average field length). */
  averageFieldLength: number;
  /** Every node in document order: its id, type, search text and count of distinct words. */
  nodes: Array<{ id: string; type: NodeType; text: string; fieldLength: number }>;
  /** For each word, the nodes holding it: `[place in nodes, how often]` pairs, flat. */
  terms: Map<string, number[]>;
}
