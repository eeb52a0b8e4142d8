import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CanvasError } from '../model/canvas-error.js';
import { NODE_TYPES } from '../model/types.js';
import { canvasLog } from '../store/canvas-log.js';
import { nodeHistory } from '../store/node-history.js';
import { listProposals } from '../store/proposals.js';
import { readCanvasText } from '../store/read-canvas.js';
import { readNodes } from '../store/read-nodes.js';
import { readSnapshot } from '../store/read-snapshot.js';
import { recordWatch } from '../store/watch-canvas.js';
import { loadRenderPrompt } from './load-render-prompt.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { HistoryResultSchema, LogResultSchema, PromptResultSchema, ProposalsResultSchema, ReadResultSchema } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { ledgerArg, nodeArg } from './tool-arguments.js';

const REFUSED =
  'A refusal is {"error":{"code","message","hint"}} (isError false): NO_ROLE when you hold no role on the canvas (reads need viewer), WORKSPACE_MISMATCH, CANVAS_NOT_FOUND, BAD_LEDGER_ID.';

/**
 * Register the read tools: canvas_read, canvas_history, canvas_log, canvas_prompt and
 * canvas_list_proposals (docs/mcp.md "The tools"). Each checks the workspace, then that
 * the server's identity holds at least viewer on the canvas.
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
      title: 'Read a canvas',
      description: [
        'Read a canvas. Returns, as `canvas read` prints it, the line `Canvas-Base: <sha>` and then the canonical XML, every node with its `id` and `v`;',
        'the structured result is {"ledger","revision","xml"} (and "nodes" for a filtered read).',
        'Read first: every write names that sha as `base`, and your decisions should rest on what you read, not on memory.',
        'Open questions are <question> nodes without answered="true".',
        REFUSED,
      ].join(' '),
      args: {
        ledger: ledgerArg,
        at: z.string().optional().describe('Optional: a commit sha (7+ hex) on main; the canvas as it stood there. Leave it out to read the current revision.'),
        id: z.array(z.string()).optional().describe('Optional: only these nodes (each must be in the canvas), as `canvas read --id`.'),
        type: z.array(z.enum(NODE_TYPES)).optional().describe('Optional: only nodes of these types, as `canvas read --type`.'),
      },
      result: [ReadResultSchema],
      annotations: READ,
      watches: true,
      text: (r: { revision: string; xml: string }) => `Canvas-Base: ${r.revision}\n${r.xml}`,
    },
    async ({ ledger, at, id, type }) => {
      await requireViewer(ctx, ledger);
      if (id !== undefined || type !== undefined) {
        const read = await readNodes(ctx.ws, { ledger, at, ids: id, types: type });
        recordWatch(ctx.ws, ctx.who, ledger, read.revision);
        return { ledger: read.ledger, revision: read.revision, xml: read.nodes.map((n) => n.xml).join(''), nodes: read.nodes };
      }
      const read = await readCanvasText(ctx.ws, { ledger, at });
      // Reading over MCP makes the caller a watcher (docs/store.md, "Watches and the inbox").
      recordWatch(ctx.ws, ctx.who, ledger, read.revision);
      return { ledger: read.ledger, revision: read.revision, xml: read.xml };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_history',
    {
      title: "A node's history",
      description: [
        'The commits that named one node, oldest first, across moves: JSON {"ledger","node","commits":[{"commit","op","node","author","reason","date","proposedBy"?,"proposedWhy"?}]}.',
        'For an approved proposal `author` and `reason` are who approved it and why, `proposedBy` and `proposedWhy` who proposed it and why: two identities, two reasons.',
        REFUSED,
        'NODE_NOT_FOUND when no commit names the node.',
      ].join(' '),
      args: { ledger: ledgerArg, node: nodeArg },
      result: [HistoryResultSchema],
      annotations: READ,
    },
    async ({ ledger, node }) => {
      await requireViewer(ctx, ledger);
      return { ledger, node, commits: await nodeHistory(ctx.ws, { ledger, node }) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_log',
    {
      title: "A canvas's log",
      description: [
        "The canvas's commits, newest first, every operation with its node, author and reason:",
        'JSON {"ledger","commits":[{"commit","op","node","author","reason","date"}]}.',
        REFUSED,
      ].join(' '),
      args: {
        ledger: ledgerArg,
        maxCount: z.number().int().positive().optional().describe('Optional: at most this many commits (the newest). Leave it out for all.'),
      },
      result: [LogResultSchema],
      annotations: READ,
    },
    async ({ ledger, maxCount }) => {
      await requireViewer(ctx, ledger);
      return { ledger, commits: await canvasLog(ctx.ws, { ledger, limit: maxCount }) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_prompt',
    {
      title: 'The canvas as a prompt',
      description: [
        'The canvas as text to work from instead of the conversation: the revision to write against, the discipline, the open questions,',
        'the document as readable text with node ids, and the latest edits with their reasons. Never truncated: a canvas over the budget',
        'comes whole with a notice that resolving it is your first work. The text is the prompt; the structured result is {"ledger","revision","prompt"}.',
        REFUSED,
      ].join(' '),
      args: {
        ledger: ledgerArg,
        edits: z.number().int().nonnegative().optional().describe('Optional: how many recent edits to show with their reasons (default 10).'),
      },
      result: [PromptResultSchema],
      annotations: READ,
      text: (r: { prompt: string }) => r.prompt,
    },
    async ({ ledger, edits }) => {
      await requireViewer(ctx, ledger);
      const snapshot = await readSnapshot(ctx.ws, { ledger, edits });
      let renderPrompt: Awaited<ReturnType<typeof loadRenderPrompt>>;
      try {
        renderPrompt = await loadRenderPrompt();
      } catch (e) {
        throw new CanvasError('INTERNAL', `the prompt renderer could not be loaded: ${(e as Error).message}`, 'use canvas_read; this build of the server has no prompt renderer');
      }
      return { ledger: snapshot.ledger, revision: snapshot.revision, prompt: renderPrompt(snapshot, edits !== undefined ? { edits, surface: 'mcp' } : { surface: 'mcp' }) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_list_proposals',
    {
      title: "A canvas's proposals",
      description: [
        "The canvas's proposals, open ones first: JSON {\"ledger\",\"proposals\":[{\"id\",\"status\" (open|approved|rejected),\"op\",\"node\",\"anchor\",\"payload\",\"base\",\"why\",\"proposedBy\",\"decidedBy\"?,\"decision\"?,...}]}.",
        'An editor or owner decides an open one with canvas_approve_proposal or canvas_reject_proposal.',
        REFUSED,
      ].join(' '),
      args: { ledger: ledgerArg },
      result: [ProposalsResultSchema],
      annotations: READ,
    },
    async ({ ledger }) => {
      await requireViewer(ctx, ledger);
      return { ledger, proposals: await listProposals(ctx.ws, { ledger }) };
    },
  );
}
