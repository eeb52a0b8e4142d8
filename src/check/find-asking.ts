import type { IndexedNode } from '../model/index-nodes.js';

/**
 * The open question that already asks about these nodes, if any (docs/coherence.md "Asked
 * once"): a `question` without `answered="true"` whose text names every one of the node ids as a
 * word (an id is a word when no letter or digit touches it). The checker's own questions end with
 * `(nodes a, b)`, so they are found this way, and so is a person's question that names the ids.
 *
 * @param index - the canvas's nodes by id
 * @param nodes - the ids of one contradiction
 * @returns the question's id, or null
 */
export function findAsking(index: ReadonlyMap<string, IndexedNode>, nodes: readonly string[]): string | null {
  const words = nodes.map((id) => new RegExp(`(?<![A-Za-z0-9])${id}(?![A-Za-z0-9])`));
  for (const { node } of index.values()) {
    if (node.type !== 'question' || node.answered) continue;
    if (words.every((w) => w.test(node.text))) return node.id;
  }
  return null;
}
