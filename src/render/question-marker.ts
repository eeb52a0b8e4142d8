import type { QuestionNode } from '../model/types.js';

/**
 * The visible marker of a question node (`docs/projections.md`, "What all three say"), the same
 * words on the page, in the comment and in the prompt.
 *
 * @param question - the question node
 * @returns `Open question` or `Answered`
 */
export function questionMarker(question: QuestionNode): string {
  return question.answered ? 'Answered' : 'Open question';
}
