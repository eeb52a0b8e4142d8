import type { Element } from 'hast';
import { h } from 'hastscript';
import type { Canvas } from '../../model/types.js';
import { orderQuestions } from '../order-questions.js';
import { questionMarker } from '../question-marker.js';

/**
 * The question index (`docs/projections.md`, "The page"): the element `id="questions"` holding one
 * `<a href="#<id>">` per question node (open ones first, then answered) and no other link.
 *
 * @param canvas - the tree
 * @returns the `nav` element
 */
export function questionIndex(canvas: Canvas): Element {
  const questions = orderQuestions(canvas);
  const open = questions.filter((q) => !q.answered).length;
  const summary = questions.length === 0 ? 'No questions.' : `${open} open, ${questions.length - open} answered.`;
  return h('nav', { id: 'questions', className: ['questions'], ariaLabel: 'Questions' }, [
    h('h2', 'Questions'),
    h('p', { className: ['summary'] }, summary),
    ...(questions.length === 0
      ? []
      : [
          h(
            'ol',
            questions.map((q) => h('li', { className: [q.answered ? 'answered' : 'open'] }, [h('span', { className: ['marker'] }, questionMarker(q)), ' ', h('a', { href: `#${q.id}` }, q.text)])),
          ),
        ]),
  ]);
}
