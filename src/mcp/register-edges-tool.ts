import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { canvasEdges } from '../store/canvas-edges.js';
import { EDIT_RECORD, SHA } from './outcome-schemas.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { ledgerArg } from './tool-arguments.js';

/** A canvas and the node of it a `canvas:` link names (docs/links.md, "Canvas links"). */
const TARGET = z.strictObject({ ledger: z.string(), node: z.string().nullable() });

const PROBLEM = z.enum(['no-canvas', 'no-node', 'malformed']);

/** canvas_edges: what `canvas edges --json` prints (docs/links.md, "Edges"). */
export const EdgesResultSchema = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  linksTo: z.array(
    z.strictObject({ node: z.string(), href: z.string(), label: z.string(), kind: z.enum(['web', 'canvas', 'other']), target: TARGET.optional(), problem: PROBLEM.optional() }),
  ),
  linkedFrom: z.array(z.strictObject({ ledger: z.string(), node: z.string(), href: z.string(), label: z.string(), target: TARGET, problem: z.literal('no-node').optional() })),
  actors: z.array(z.strictObject({ who: z.string(), acts: z.number().int().positive(), last: EDIT_RECORD })),
  watchers: z.array(z.strictObject({ who: z.string(), since: z.string() })),
});

/**
 * Register canvas_edges (docs/mcp.md "The tools"; docs/links.md, "Edges"): one canvas's links out
 * and in, who acted on it and who watches it, over the store's `canvasEdges`. It needs viewer on
 * the canvas, as every MCP read does; it reads the canvas's links and history, not its document
 * for the caller, so it makes no one a watcher.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerEdgesTool(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_edges',
    {
      title: "A canvas's edges",
      description: [
        'What a canvas links to, what links to it, who acted on it and who watches it, as `canvas edges --json` prints it:',
        '{"ledger","revision","linksTo":[{"node","href","label","kind":"web"|"canvas"|"other","target"?:{"ledger","node"},"problem"?}],',
        '"linkedFrom":[{"ledger","node","href","label","target","problem"?}],"actors":[{"who","acts","last":{"commit","op","node","author","reason","date"}}],"watchers":[{"who","since"}]}.',
        'A link to another canvas is a link node whose href is canvas:<ledger> or canvas:<ledger>#<node>; `problem` says when it points at no canvas (no-canvas), no node (no-node), or is malformed.',
        'Follow one with canvas_read on its target ledger. Every canvas is read at its current revision.',
        'A refusal is {"error":{"code","message","hint"}}: NO_ROLE when you hold no role on the canvas (reads need viewer), CANVAS_NOT_FOUND, BAD_LEDGER_ID.',
      ].join(' '),
      args: { ledger: ledgerArg },
      result: [EdgesResultSchema],
      annotations: READ,
    },
    async ({ ledger }) => {
      await requireViewer(ctx, ledger);
      return canvasEdges(ctx.ws, ledger);
    },
  );
}
