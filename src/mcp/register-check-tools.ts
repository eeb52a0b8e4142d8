import type { McpServer } from '@modelcontextprotocol/server';
import { authorOfCall } from './author-of-call.js';
import { bool, str } from './json-schema.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { CHECK_RESULT } from './result-schemas.js';
import type { ServerContext } from './server-context.js';

/**
 * Register canvas_check, the coherence checker (docs/coherence.md, docs/mcp.md): the server's
 * identity needs viewer to check; the questions are written as `<who> | step:check` (or the
 * call's `step`) through the store's ordinary insert, which gates the role. The model is the one
 * the server's environment names (`CANVAS_MODEL_URL`, `CANVAS_MODEL`, `CANVAS_MODEL_API_KEY`).
 * A model that could not be asked or whose reply was refused (exit 6 and 7 on the command line)
 * is an execution error (`isError` true), so a host sees that the check did not happen.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerCheckTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_check',
    {
      description:
        "Ask the server's model for contradictions between the canvas's nodes (at: as of that commit); each becomes an open question, authored as you with step check, unless one already asks it. dryRun: report only.",
      args: { properties: { ledger: str, at: str, dryRun: bool, step: str, run: str }, required: ['ledger'] },
      result: CHECK_RESULT,
      // It asks a model (open world); on one revision a second run asks nothing new.
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    async (a: { ledger: string; at?: string; dryRun?: boolean; step?: string; run?: string }) => {
      await requireViewer(ctx, a.ledger);
      const author = authorOfCall(ctx.who, a.step ?? 'check', a.run);
      const { checkCoherence } = await import('../check/check-coherence.js');
      return checkCoherence(ctx.ws, { ledger: a.ledger, at: a.at, dryRun: a.dryRun === true, author });
    },
  );
}
