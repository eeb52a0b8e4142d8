import type { RootContent } from 'mdast';
import { CanvasError } from '../../model/canvas-error.js';
import type { CanvasNode, NodeType } from '../../model/types.js';
import type { CommentContext } from './comment-context.js';
import { commentFigure } from './handlers/figure.js';
import { commentLink } from './handlers/link.js';
import { commentList } from './handlers/list.js';
import { commentQuestion } from './handlers/question.js';
import { commentSection } from './handlers/section.js';
import { commentTable } from './handlers/table.js';
import { commentText } from './handlers/text.js';

type Handler<T extends NodeType> = (node: Extract<CanvasNode, { type: T }>, ctx: CommentContext) => RootContent[];

/** One handler per node type (STYLE habit 1). */
const HANDLERS: { readonly [T in NodeType]: Handler<T> } = {
  section: commentSection,
  text: commentText,
  list: commentList,
  table: commentTable,
  figure: commentFigure,
  link: commentLink,
  question: commentQuestion,
};

/**
 * Render one node to mdast blocks by dispatching on its type.
 *
 * @param node - any node of the tree
 * @param ctx - the comment context
 * @returns the node's blocks (paragraphs, lists, fenced code)
 * @throws CanvasError `SCHEMA` for a type schema 2 does not have
 */
export function renderBlock(node: CanvasNode, ctx: CommentContext): RootContent[] {
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
