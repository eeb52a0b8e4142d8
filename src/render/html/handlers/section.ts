import type { Element } from 'hast';
import type { SectionNode } from '../../../model/types.js';
import { crossingNote } from '../crossing-note.js';
import { element } from '../element.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a section: `<section id>` with a heading (h2 at the top level, h3 nested, one level
 * only) and its children.
 *
 * @param node - the section
 * @param ctx - the page context
 * @returns the `section` element
 */
export function section(node: SectionNode, ctx: PageContext): Element {
  const heading = ctx.depth === 0 ? 'h2' : 'h3';
  const children = ctx.renderChildren(node.children, ctx.depth + 1);
  return element('section', { id: node.id, className: ['node', 'section'] }, [
    // The id (and the reasons behind it) first, floated beside the heading: a heading holds no details.
    nodeReasons(node.id, ctx),
    element(heading, {}, [node.title]),
    ...crossingNote(node.id, ctx),
    ...(children.length > 0 ? children : [element('p', { className: ['empty'] }, ['This section is empty.'])]),
  ]);
}
