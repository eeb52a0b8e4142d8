import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { authorOfCall } from './author-of-call.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { CheckReportSchema } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { ledgerArg } from './tool-arguments.js';

/**
 * Register canvas_check, the coherence checker (docs/coherence.md, docs/mcp.md): the server's
 * identity needs viewer to check; the questions are written as `<who> | step:check` (or the
 * call's `step`) through the store's ordinary insert, which gates the role. The model is the one
 * the server's environment names (`CANVAS_MODEL_URL`, `CANVAS_MODEL`, `CANVAS_MODEL_API_KEY`).
 * The result is the report as JSON (`isError` false); a model that could not be asked or whose
 * reply was refused (exit 6 and 7 on the command line) is the error shape with `isError` true,
 * so a host sees that the check did not happen; other refusals are the error shape, `isError` false.
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
      title: 'Check a canvas for contradictions',
      description: [
        'Ask the configured model for contradictions between the nodes of a canvas (at its latest revision, or `at`), and write each as an open <question> after the later of its nodes, authored as you with step "check".',
        'A contradiction an open question already asks (one naming all its node ids) is not asked again; running it twice on one revision writes nothing new. `dryRun` reports without writing.',
        'Result: the report as structured content and as JSON text: {"revision","model","findings":[{"nodes","question","evidence","status":"asked"|"proposed"|"already-asked"|"would-ask"|"conflict"|"rejected","text","after"}],"skipped",...}.',
        'A model failure (CHECK_MODEL_TIMEOUT, CHECK_MODEL_UNREACHABLE, CHECK_MODEL_FAILED) or a refused reply (CHECK_BAD_REPLY, CHECK_UNKNOWN_NODES) writes nothing and is {"error":...} with isError true; CHECK_CONFIG means the server has no model configured.',
      ].join(' '),
      args: {
        ledger: ledgerArg,
        at: z.string().optional().describe('Optional: a commit sha (7+ hex); check the canvas as it stood there. Leave it out to check its latest revision.'),
        dryRun: z.boolean().optional().describe('Optional: true to report what would be asked and write nothing.'),
        step: z.string().optional().describe('Optional: the step recorded in the author of the questions (default "check").'),
        run: z.string().optional().describe('Optional: the run recorded in the author of the questions.'),
      },
      result: [CheckReportSchema],
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (a) => {
      await requireViewer(ctx, a.ledger);
      const author = authorOfCall(ctx.who, a.step ?? 'check', a.run);
      const { checkCoherence } = await import('../check/check-coherence.js');
      return checkCoherence(ctx.ws, { ledger: a.ledger, at: a.at, dryRun: a.dryRun === true, author });
    },
  );
}
