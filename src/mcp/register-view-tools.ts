import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Snapshot } from '../model/snapshot.js';
import { listReadableCanvases } from '../store/list-readable-canvases.js';
import { readSnapshot } from '../store/read-snapshot.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { ListResultSchema, RenderResultSchema } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { ledgerArg } from './tool-arguments.js';

/** The projections canvas_render makes, named as `canvas render --format` names them. */
const FORMATS = ['html', 'comment', 'text'] as const;

/** Render a snapshot in one format; each renderer is loaded only when asked for (docs/projections.md). */
async function renderAs(snapshot: Snapshot, format: (typeof FORMATS)[number]): Promise<string> {
  switch (format) {
    case 'html': {
      const [{ preparePage }, { renderPage }] = await Promise.all([import('../render/html/prepare-page.js'), import('../render/html/render-page.js')]);
      return renderPage(snapshot, await preparePage(snapshot));
    }
    case 'comment':
      return (await import('../render/comment/render-comment.js')).renderComment(snapshot);
    case 'text':
      // The prompt names the tools to an MCP caller, not the commands (docs/projections.md, "The prompt").
      return (await import('../render/text/render-prompt.js')).renderPrompt(snapshot, { surface: 'mcp' });
  }
}

/**
 * Register canvas_list and canvas_render (docs/mcp.md "The tools"): which canvases the server's
 * identity may read, and one canvas as a page, a comment or the prompt text. Both read only;
 * canvas_render needs viewer on its canvas, and canvas_list leaves out every canvas the identity
 * holds no role on.
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
      title: 'List the canvases',
      description: [
        'Every canvas of the workspace you hold a role on, sorted by ledger id, as `canvas list --json` shows it:',
        '{"canvases":[{"ledger","revision","summary":{"node","text","full","cut"}|null,"lastEdit":{"commit","op","node","author","reason","date"},"questions":{"open","answered"},"ending":{"kind":"frozen"|"abandoned",...}|null,"lastRunWrite","writtenByRun","watchers","role"}]}.',
        '`revision` is what a write declares as `base`; `role` is yours. A canvas you hold no role on is not listed (ask its owner for a grant).',
        'A canvas that could not be read is listed with {"error":{"code","message"}} instead of its facts.',
      ].join(' '),
      args: {
        unwrittenByRuns: z
          .boolean()
          .optional()
          .describe('Optional: true to list only the canvases no run ever wrote to (no write whose author has a run: part), as `canvas list --unwritten-by-runs`.'),
      },
      result: [ListResultSchema],
      annotations: READ,
    },
    async ({ unwrittenByRuns }) => listReadableCanvases(ctx.ws, ctx.who, { unwrittenByRuns }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_render',
    {
      title: 'Render a canvas',
      description: [
        'One projection of a canvas at one revision, as `canvas render --format` makes it: `html` the standalone page, `comment` the Markdown comment, `text` the prompt text (naming these tools rather than the commands, as canvas_prompt does).',
        'The text content is the projection itself; the structured result is {"ledger","revision","format","content"}.',
        'A refusal is {"error":{"code","message","hint"}}: NO_ROLE when you hold no role on the canvas (reads need viewer), CANVAS_NOT_FOUND, BAD_LEDGER_ID.',
      ].join(' '),
      args: {
        ledger: ledgerArg,
        format: z.enum(FORMATS).describe('html (a standalone page), comment (Markdown for the ledger row\'s comment), or text (the prompt text).'),
        at: z.string().optional().describe('Optional: a commit sha (7+ hex) on main; the canvas as it stood there. Leave it out for the current revision.'),
      },
      result: [RenderResultSchema],
      annotations: READ,
      text: (r: { content: string }) => r.content,
    },
    async ({ ledger, format, at }) => {
      await requireViewer(ctx, ledger);
      const snapshot = await readSnapshot(ctx.ws, { ledger, at });
      return { ledger: snapshot.ledger, revision: snapshot.revision, format, content: await renderAs(snapshot, format) };
    },
  );
}
