import type { GetPromptResult, McpServer } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { readSnapshot, recordWatch } from '../store/index.js';
import { standardSchema } from './json-schema.js';
import { protocolErrorOf } from './register-canvas-resources.js';
import { renderAs } from './render-as.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';

/** The prompt's name: a host shows it as a slash command (Claude Code: `/mcp__canvas__canvas_step`). */
const STEP_PROMPT = 'canvas_step';

/** A prompt's arguments are strings (MCP, "Prompts"): `edits` is a whole number written out. */
interface StepArgs {
  ledger: string;
  edits?: string;
}

/**
 * Register the prompt `canvas_step` (docs/mcp.md, "The step prompt"): a step's start in any MCP
 * host, the prompt projection of a canvas as one user message, the same text `canvas_read` gives
 * with `format: "text"` (docs/projections.md, "The prompt": the editing lines name the tools).
 * Its listing is counted in the budget (docs/mcp.md, "The budget"), so its words are few.
 *
 * A refusal is the JSON-RPC error -32602 whose `data` is the error shape (`NO_ROLE`,
 * `CANVAS_NOT_FOUND`, `BAD_LEDGER_ID`, `USAGE` for `edits` that is not a whole number), as a
 * resource read's is; getting it needs viewer and makes the caller a watcher, as a read does.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerStepPrompt(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    STEP_PROMPT,
    {
      description: 'Start a step from the canvas instead of the conversation: the revision to write against, how to edit, open questions, the document, latest edits.',
      argsSchema: standardSchema<StepArgs>({
        type: 'object',
        properties: { ledger: { type: 'string' }, edits: { type: 'string', description: 'how many latest edits (default 10)' } },
        required: ['ledger'],
      }),
    },
    async ({ ledger, edits }: StepArgs): Promise<GetPromptResult> => {
      try {
        if (edits !== undefined && !/^(0|[1-9][0-9]{0,5})$/.test(edits)) {
          throw new CanvasError('USAGE', `edits ${JSON.stringify(edits)} is not a whole number of edits`, 'pass edits as digits, for example "10" (0 shows none)', { edits });
        }
        await requireViewer(ctx, ledger);
        const n = edits === undefined ? undefined : Number(edits);
        const snapshot = await readSnapshot(ctx.ws, { ledger, ...(n === undefined ? {} : { edits: n }) });
        const text = await renderAs(snapshot, 'text', n);
        // Getting the prompt is reading the canvas (docs/store.md, "Watches and the inbox").
        recordWatch(ctx.ws, ctx.who, ledger, snapshot.revision);
        return { messages: [{ role: 'user', content: { type: 'text', text } }] };
      } catch (e) {
        throw protocolErrorOf(e);
      }
    },
  );
}
