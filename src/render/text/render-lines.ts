import { CanvasError } from '../../model/canvas-error.js';
import type { CanvasNode, NodeType } from '../../model/types.js';
import { textFigure } from './handlers/figure.js';
import { textLink } from './handlers/link.js';
import { textList } from './handlers/list.js';
import { textQuestion } from './handlers/question.js';
import { textSection } from './handlers/section.js';
import { textTable } from './handlers/table.js';
import { textText } from './handlers/text.js';
import type { TextContext } from './text-context.js';

type Handler<T extends NodeType> = (node: Extract<CanvasNode, { type: T }>, ctx: TextContext) => string[];

/** One handler per node type (STYLE habit 1). */
const HANDLERS: { readonly [T in NodeType]: Handler<T> } = {
  section: textSection,
  text: textText,
  list: textList,
  table: textTable,
  figure: textFigure,
  link: textLink,
  question: textQuestion,
};

/**
 * Render one node as prompt lines by dispatching on its type.
 *
 * @param node - any node of the tree
 * @param ctx - the prompt context
 * @returns the node's lines, the first naming its id
 * @throws CanvasError `SCHEMA` for a type schema 2 does not have
 */
export function renderLines(node: CanvasNode, ctx: TextContext): string[] {
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
