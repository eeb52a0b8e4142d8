import type { Element } from 'hast';
import { CanvasError } from '../../model/canvas-error.js';
import type { CanvasNode, NodeType } from '../../model/types.js';
import { renderFigure } from './handlers/figure.js';
import { renderLink } from './handlers/link.js';
import { renderList } from './handlers/list.js';
import { renderQuestion } from './handlers/question.js';
import { renderSection } from './handlers/section.js';
import { renderTable } from './handlers/table.js';
import { renderText } from './handlers/text.js';
import type { PageContext } from './page-context.js';

type Handler<T extends NodeType> = (node: Extract<CanvasNode, { type: T }>, ctx: PageContext) => Promise<Element>;

/** One handler per node type (STYLE habit 1). */
const HANDLERS: { readonly [T in NodeType]: Handler<T> } = {
  section: renderSection,
  text: renderText,
  list: renderList,
  table: renderTable,
  figure: renderFigure,
  link: renderLink,
  question: renderQuestion,
};

/**
 * Render one node to its hast element by dispatching on its type.
 *
 * @param node - any node of the tree
 * @param ctx - the page context
 * @returns the node's element, carrying `id="<node id>"`
 * @throws CanvasError `SCHEMA` for a type schema 2 does not have
 */
export function renderNode(node: CanvasNode, ctx: PageContext): Promise<Element> {
  const handler = Object.hasOwn(HANDLERS, node.type) ? (HANDLERS[node.type] as Handler<NodeType>) : undefined;
  if (!handler) {
    const type = String((node as { type: unknown }).type);
    throw new CanvasError('SCHEMA', `node ${String(node.id)} has the type "${type}", which schema 2 does not have`, 'render a canvas read by the store', {
      node: node.id,
      type,
    });
  }
  return handler(node as never, ctx);
}
