import type { Element } from 'hast';
import type { TextNode } from '../../../model/types.js';
import { crossingNote } from '../crossing-note.js';
import { element } from '../element.js';
import { nodeReasons } from '../node-reasons.js';
import type { PageContext } from '../page-context.js';

/**
 * Render a text node: a paragraph (its line feeds kept by the stylesheet).
 *
 * @param node - the text node
 * @param ctx - the page context
 * @returns `<div class="node text" id>` holding the paragraph
 */
export function text(node: TextNode, ctx: PageContext): Element {
  return element('div', { id: node.id, className: ['node', 'text'] }, [nodeReasons(node.id, ctx), element('p', {}, [node.text]), ...crossingNote(node.id, ctx)]);
}
