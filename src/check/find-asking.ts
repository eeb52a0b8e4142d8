import type { IndexedNode } from '../model/index-nodes.js';
import type { ProposalFile } from '../store/index.js';

/** What already asks a contradiction: an open question of the canvas, or an open proposal to insert one. */
export type Asking = { node: string } | { proposalId: string };

/**
 * What already asks about these nodes, if anything (docs/coherence.md "Asked once"): a `question`
 * without `answered="true"` whose text names every one of the node ids as a word (an id is a word
 * when no letter or digit touches it), else an open proposal to insert such a question. The
 * checker's own questions end with `(nodes a, b)`, so they are found this way, and so is a
 * person's question that names the ids.
 *
 * @param index - the canvas's nodes by id
 * @param proposals - the canvas's proposals (only open inserts of a question count)
 * @param nodes - the ids of one contradiction
 * @returns the question's id or the proposal's id, or null
 */
export function findAsking(index: ReadonlyMap<string, IndexedNode>, proposals: readonly ProposalFile[], nodes: readonly string[]): Asking | null {
  const words = nodes.map((id) => new RegExp(`(?<![A-Za-z0-9])${id}(?![A-Za-z0-9])`));
  const names = (text: string) => words.every((w) => w.test(text));
  for (const { node } of index.values()) {
    if (node.type === 'question' && !node.answered && names(node.text)) return { node: node.id };
  }
  for (const p of proposals) {
    if (p.status === 'open' && p.op === 'insert' && p.payload?.startsWith('<question>') && names(p.payload)) return { proposalId: p.id };
  }
  return null;
}
