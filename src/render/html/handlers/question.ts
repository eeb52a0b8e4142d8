import type { Element } from 'hast';
import type { QuestionNode } from '../../../model/types.js';
import { questionMarker } from '../../question-marker.js';
import { crossingNote } from '../crossing-note.js';
import { element } from '../element.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a question (`docs/projections.md`, "The page"): the element carries the class `question`
 * (and `open` or `answered`) and a visible marker, so an open question is loud.
 *
 * @param node - the question node
 * @param ctx - the page context
 * @returns `<div class="node question open|answered" id>`
 */
export function question(node: QuestionNode, ctx: PageContext): Element {
  const state = node.answered ? 'answered' : 'open';
  return element('div', { id: node.id, className: ['node', 'question', state] }, [
    nodeReasons(node.id, ctx),
    element('p', {}, [element('strong', { className: ['marker'] }, [questionMarker(node)]), ' ', element('span', { className: ['q-text'] }, [node.text])]),
    ...crossingNote(node.id, ctx),
  ]);
}
