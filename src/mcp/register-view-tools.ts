import type { McpServer } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import type { NodeType } from '../model/types.js';
import { canvasEdges, type CanvasListEntry, type CanvasListFailure, listReadableCanvases, searchCanvases, verifyWorkspace } from '../store/index.js';
import { bool, str } from './json-schema.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { EDGES_RESULT, LIST_RESULT, SEARCH_RESULT, VERIFY_RESULT } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { NODE_TYPE_LIST } from './tool-arguments.js';

/**
 * One canvas of canvas_list, without what it would say twice (docs/mcp.md, "Results"): the
 * summary's text is given once (cut, with `cut` saying so), the last edit without its commit
 * (it is the `revision`), the ending without the reason and commit the last edit already gives.
 */
function listed(c: (CanvasListEntry | CanvasListFailure) & { role: string | null }): object {
  if ('error' in c) return c;
  const { commit, ...lastEdit } = c.lastEdit;
  const ending = c.ending && c.ending.commit === commit ? { kind: c.ending.kind, editedSince: c.ending.editedSince } : c.ending;
  return {
    ledger: c.ledger,
    revision: c.revision,
    role: c.role,
    summary: c.summary && { node: c.summary.node, text: c.summary.text, cut: c.summary.cut },
    questions: c.questions,
    lastEdit,
    ending,
    writtenByRun: c.writtenByRun,
    watchers: c.watchers,
  };
}

/**
 * Register canvas_list, canvas_search, canvas_edges and canvas_verify (docs/mcp.md "The tools"):
 * which canvases the server's identity may read, the nodes that hold some words, one canvas's
 * links and actors, and the replay of one canvas's commits against the rules. Each reads only;
 * a canvas the identity holds no role on is neither listed nor searched, and naming one is NO_ROLE.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerViewTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_list',
    {
      description: 'The canvases you hold a role on, by ledger id: your role, the revision, summary, open questions, last edit, ending. unwrittenByRuns: only those no run wrote to.',
      args: { properties: { unwrittenByRuns: bool }, required: [] },
      result: LIST_RESULT,
      annotations: READ,
    },
    async ({ unwrittenByRuns }: { unwrittenByRuns?: boolean }) => {
      const { canvases } = await listReadableCanvases(ctx.ws, ctx.who, { unwrittenByRuns });
      return { canvases: canvases.map(listed) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_search',
    {
      description:
        "Nodes holding every word of query (the last word also as a prefix), best first, over the canvases you may read, or one (ledger). A hit's revision is the base for a write to it; snippet marks each match with **.",
      args: { properties: { query: str, ledger: str, type: NODE_TYPE_LIST, limit: { type: 'integer', minimum: 1, maximum: 1000 } }, required: ['query'] },
      result: SEARCH_RESULT,
      annotations: READ,
    },
    async ({ query, ledger, type, limit }: { query: string; ledger?: string; type?: NodeType[]; limit?: number }) => {
      if (ledger !== undefined) await requireViewer(ctx, ledger);
      try {
        return await searchCanvases(ctx.ws, { query, ledger, types: type, limit, who: ctx.who });
      } catch (e) {
        // The store's words for an empty query name the command line; an MCP caller passes `query`.
        if (e instanceof CanvasError && e.code === 'USAGE') throw new CanvasError('USAGE', e.message, 'pass the words to find as `query`, for example "idle timeout"', e.data);
        throw e;
      }
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_edges',
    {
      description: "A canvas's links out and in (a link node whose href is canvas:<ledger> or canvas:<ledger>#<node>), who acted on it and who watches it.",
      args: { properties: { ledger: str }, required: ['ledger'] },
      result: EDGES_RESULT,
      annotations: READ,
    },
    async ({ ledger }: { ledger: string }) => {
      await requireViewer(ctx, ledger);
      return canvasEdges(ctx.ws, ledger);
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_verify',
    {
      description: "Replay the canvas's commits against the rules (one node per edit, v, reasons, roles, the schema): ok, the violations, and what was repaired.",
      args: { properties: { ledger: str }, required: ['ledger'] },
      result: VERIFY_RESULT,
      annotations: READ,
    },
    async ({ ledger }: { ledger: string }) => {
      await requireViewer(ctx, ledger);
      return verifyWorkspace(ctx.ws, { ledger });
    },
  );
}
