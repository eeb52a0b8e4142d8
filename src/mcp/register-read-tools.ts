import type { McpServer } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import type { NodeType } from '../model/types.js';
import { canvasLog, listProposals, nodeHistory, readCanvasText, readNodes, readSnapshot, recordWatch } from '../store/index.js';
import { count, oneOf, str } from './json-schema.js';
import { appUriOf } from './register-canvas-app.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { renderAs } from './render-as.js';
import { requireViewer } from './require-viewer.js';
import { HISTORY_RESULT, PROPOSALS_RESULT, READ_RESULT } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { NODE_TYPE_LIST } from './tool-arguments.js';

/** The formats of canvas_read: the document, and the projections (docs/projections.md). */
const FORMATS = ['xml', 'text', 'html', 'comment', 'done'] as const;

/** What canvas_read answers: the document, the nodes, a projection, or the done artifact. */
interface ReadValue {
  ledger: string;
  revision: string;
  xml?: string;
  nodes?: object[];
  format?: string;
  content?: string;
  done?: object;
}

interface ReadArgs {
  ledger: string;
  format?: (typeof FORMATS)[number];
  at?: string;
  id?: string[];
  type?: NodeType[];
  edits?: number;
}

/**
 * Register the read tools: canvas_read, canvas_history and canvas_list_proposals (docs/mcp.md
 * "The tools"). Each checks the workspace, then that the server's identity holds at least viewer
 * on the canvas. canvas_read is `canvas read`, `canvas prompt` and `canvas render` in one tool:
 * they differ only by what they print, so a `format` says which (docs/mcp.md, "Why one read
 * tool"); canvas_history is `canvas history` and `canvas log`.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerReadTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_read',
    {
      description:
        'Read a canvas; you become a watcher of it. format: xml (default: the document, each node with its id and v), text (the prompt, with the latest `edits` edits), html (the page), comment (Markdown), done (the done artifact). id, type: only those nodes. at: the canvas as of that commit.',
      args: {
        properties: { ledger: str, format: oneOf(...FORMATS), at: str, id: { type: 'array', items: str }, type: NODE_TYPE_LIST, edits: count },
        required: ['ledger'],
      },
      result: READ_RESULT,
      annotations: READ,
      watches: true,
      view: (r: ReadValue) => appUriOf(r.ledger),
      // A client that cannot read structured content reads what `canvas read` prints, or the projection.
      text: (r: ReadValue) => r.content ?? (r.xml !== undefined ? `Canvas-Base: ${r.revision}\n${r.xml}` : JSON.stringify(r)),
    },
    async ({ ledger, format = 'xml', at, id, type, edits }: ReadArgs): Promise<ReadValue> => {
      await requireViewer(ctx, ledger);
      if ((id !== undefined || type !== undefined) && format !== 'xml') {
        throw new CanvasError('USAGE', `id and type filter the xml format, not ${format}`, 'leave out format, or leave out id and type', { format });
      }
      if (edits !== undefined && format !== 'text') throw new CanvasError('USAGE', `edits is for the text format, not ${format}`, 'pass format: "text" with edits', { format });
      let value: ReadValue;
      let revision: string;
      if (id !== undefined || type !== undefined) {
        const read = await readNodes(ctx.ws, { ledger, at, ids: id, types: type });
        revision = read.revision;
        value = { ledger: read.ledger, revision, nodes: read.nodes };
      } else if (format === 'xml') {
        const read = await readCanvasText(ctx.ws, { ledger, at });
        revision = read.revision;
        value = { ledger: read.ledger, revision, xml: read.xml };
      } else {
        const snapshot = await readSnapshot(ctx.ws, { ledger, at, ...(edits !== undefined ? { edits } : {}) });
        revision = snapshot.revision;
        value =
          format === 'done'
            ? { ledger: snapshot.ledger, revision, format, done: (await import('../render/done/done-artifact.js')).doneArtifact(snapshot) }
            : { ledger: snapshot.ledger, revision, format, content: await renderAs(snapshot, format, edits) };
      }
      // Reading over MCP makes the caller a watcher (docs/store.md, "Watches and the inbox").
      recordWatch(ctx.ws, ctx.who, ledger, revision);
      return value;
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_history',
    {
      description: "The commits that named `node`, oldest first (an approved proposal's also with proposedBy and proposedWhy); without node, the canvas's commits, newest first (limit: the newest only).",
      args: { properties: { ledger: str, node: str, limit: { type: 'integer', minimum: 1 } }, required: ['ledger'] },
      result: HISTORY_RESULT,
      annotations: READ,
    },
    async ({ ledger, node, limit }: { ledger: string; node?: string; limit?: number }) => {
      await requireViewer(ctx, ledger);
      if (node === undefined) return { ledger, commits: await canvasLog(ctx.ws, { ledger, limit }) };
      if (limit !== undefined) throw new CanvasError('USAGE', "limit is for the canvas's commits, not a node's", 'leave out limit, or leave out node', {});
      return { ledger, node, commits: await nodeHistory(ctx.ws, { ledger, node }) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_list_proposals',
    {
      description: "The canvas's proposals, open ones first; an editor or owner decides an open one.",
      args: { properties: { ledger: str }, required: ['ledger'] },
      result: PROPOSALS_RESULT,
      annotations: READ,
    },
    async ({ ledger }: { ledger: string }) => {
      await requireViewer(ctx, ledger);
      return { ledger, proposals: await listProposals(ctx.ws, { ledger }) };
    },
  );
}
