import { indexNodes } from '../model/index-nodes.js';
import type { Canvas, QuestionNode } from '../model/types.js';

/**
 * The canvas's questions for an index (`docs/projections.md`, "What all three say"): every
 * `question` node and nothing else, open ones first, then answered ones, each group in document
 * order.
 *
 * @param canvas - the tree
 * @returns the question nodes in index order
 */
export function orderQuestions(canvas: Canvas): QuestionNode[] {
  const all: QuestionNode[] = [];
  for (const { node } of indexNodes(canvas).values()) {
    if (node.type === 'question') all.push(node);
  }
  return [...all.filter((q) => !q.answered), ...all.filter((q) => q.answered)];
}
