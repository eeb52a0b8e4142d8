import { CanvasError } from '../../model/canvas-error.js';
import { indexNodes } from '../../model/index-nodes.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { NodeType } from '../../model/types.js';
import { type ReadOptions, readCheckedCanvas } from './read-canvas-text.js';
import type { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';

/** One node as a filtered read gives it: its id, type, version, parent and canonical XML. */
export interface ReadNode {
  id: string;
  type: NodeType;
  v: number;
  /** A section id, or `root`. */
  parent: string;
  xml: string;
}

/** Options of {@link readNodes}: a read's, and the ids and types to keep (each list: any of). */
export interface ReadNodesOptions extends ReadOptions {
  ids?: readonly string[] | undefined;
  types?: readonly NodeType[] | undefined;
}

/**
 * Read the nodes of a canvas that match `ids` and `types`, in document order (docs/cli.md,
 * `canvas read --id/--type`; the MCP server's `canvas_read` takes the same filters). A node
 * matches when its id is one of `ids` (or `ids` is absent) and its type one of `types` (or
 * `types` is absent). Every id asked for must be in the canvas.
 *
 * @returns the ledger, the revision read (full sha) and the matching nodes
 * @throws CanvasError `NODE_NOT_FOUND` (data: `missing`, the ids not in the canvas), and what
 *   {@link readCheckedCanvas} throws
 */
export async function readNodes(ws: Workspace, options: ReadNodesOptions, reader?: RepoReader): Promise<{ ledger: string; revision: string; nodes: ReadNode[] }> {
  const read = await readCheckedCanvas(ws, { ledger: options.ledger, at: options.at }, reader);
  const index = indexNodes(read.canvas);
  const { ids, types } = options;
  const missing = (ids ?? []).filter((id) => !index.has(id));
  if (missing.length > 0) {
    throw new CanvasError(
      'NODE_NOT_FOUND',
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in canvas ${read.ledger}; its nodes are ${[...index.keys()].join(', ') || 'none'}`,
      `run \`canvas read ${read.ledger}\` to see them`,
      { missing },
    );
  }
  const nodes = [...index.values()]
    .filter((e) => (ids === undefined || ids.includes(e.node.id)) && (types === undefined || types.includes(e.node.type)))
    .map((e) => ({ id: e.node.id, type: e.node.type, v: e.node.v, parent: e.parent, xml: serializeNode(e.node) }));
  return { ledger: read.ledger, revision: read.revision, nodes };
}
