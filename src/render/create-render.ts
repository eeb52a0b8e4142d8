import { CanvasError } from '../model/canvas-error.js';
import type { CanvasNode, NodeType } from '../model/types.js';

/** A handler: one node of type `T`, with its format's context, to that format's output. */
type Handler<T extends NodeType, Ctx, Out> = (node: Extract<CanvasNode, { type: T }>, ctx: Ctx) => Out;

/**
 * One handler per node type, keyed by the type: the compiler refuses a table that lacks one, and
 * each handler is given the node already narrowed to its type. Handlers are named by the node
 * type they draw (`section`, `text`, `table`, ...), as hast-util-to-html names its handlers, so a
 * table reads `{ section, text, list, table, figure, link, question }`.
 */
export type Handlers<Ctx, Out> = { readonly [T in NodeType]: Handler<T, Ctx, Out> };

/**
 * Make one renderer of nodes from a format's handler table (`docs/projections.md`, "How the
 * renderers are built"): the returned function calls the handler of the node's type. This is the
 * one place a type without a handler is caught (a tree not read through the store, or built by
 * hand); every format fails the same way.
 *
 * @param handlers - the format's table, one handler per node type
 * @returns `(node, ctx) => Out`, calling the handler of `node.type`
 * @throws (from the returned function) CanvasError `SCHEMA` for a node whose type schema 2 does
 *   not have, naming the node and the type
 */
export function createRender<Ctx, Out>(handlers: Handlers<Ctx, Out>): (node: CanvasNode, ctx: Ctx) => Out {
  return (node, ctx) => {
    const type: unknown = (node as { type: unknown }).type;
    if (typeof type !== 'string' || !Object.hasOwn(handlers, type)) {
      throw new CanvasError('SCHEMA', `node ${String(node.id)} has the type "${String(type)}", which schema 2 does not have`, 'render a canvas read by the store', {
        node: node.id,
        type: String(type),
      });
    }
    return (handlers[type as NodeType] as Handler<NodeType, Ctx, Out>)(node as never, ctx);
  };
}
