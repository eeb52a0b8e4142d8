import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ackInbox } from '../store/ack-inbox.js';
import { readInbox } from '../store/read-inbox.js';
import { unwatchCanvas, watchCanvas } from '../store/watch-canvas.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';
import { ledgerArg } from './tool-arguments.js';
import { InboxResultSchema, WatchResultSchema } from './watch-result-schemas.js';

/**
 * Watching changes the watcher's own state, never a canvas: not read-only, nothing of a canvas
 * overwritten, and the same call again changes nothing more (a second watch keeps the first,
 * a second unwatch is NOT_WATCHING).
 */
const WATCHING = { ...READ, readOnlyHint: false };

/**
 * Register canvas_watch, canvas_unwatch and canvas_inbox (docs/mcp.md "Watches and the inbox"):
 * the caller's watches and inbox, as its `--as` who. Watching needs viewer on the canvas; the
 * inbox shows only the canvases the caller holds a role on.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerWatchTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_watch',
    {
      title: 'Watch a canvas',
      description: [
        "Watch a canvas: its later changes reach your inbox (canvas_inbox). Reading a canvas (canvas_read) or writing to it makes you a watcher already; watching one you watch changes nothing.",
        'JSON {"ledger","who","watching":true,"changed","watch":{"who","ledger","since","cursor"}}.',
        'A refusal is {"error":{"code","message","hint"}}: NO_ROLE (watching needs viewer), CANVAS_NOT_FOUND, BAD_LEDGER_ID.',
      ].join(' '),
      args: { ledger: ledgerArg },
      result: [WatchResultSchema],
      annotations: WATCHING,
    },
    async ({ ledger }) => {
      await requireViewer(ctx, ledger);
      return watchCanvas(ctx.ws, { ledger, author: ctx.who });
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_unwatch',
    {
      title: 'Stop watching a canvas',
      description: [
        'Stop watching a canvas: its changes no longer reach your inbox, and its cursor is dropped (a later read or write makes you a watcher again from then on).',
        'JSON {"ledger","who","watching":false,"changed":true,"watch":null}.',
        'A refusal is {"error":{"code","message","hint"}}: NOT_WATCHING when you do not watch it, BAD_LEDGER_ID.',
      ].join(' '),
      args: { ledger: ledgerArg },
      result: [WatchResultSchema],
      // It drops the watch and its cursor, as a revoke drops a grant.
      annotations: { ...WATCHING, destructiveHint: true },
    },
    ({ ledger }) => unwatchCanvas(ctx.ws, { ledger, author: ctx.who }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_inbox',
    {
      title: 'Your inbox',
      description: [
        'Every change on the canvases you watch since you last acknowledged, oldest first, your own changes left out:',
        'JSON {"who","events":[{"ledger","commit","op","node","author","reason","date","diff","proposal"?,"grant"?,"ending"?:{"kind","report"}}],"waiting":[proposals waiting for your decision as editor or owner],"canvases":[{"ledger","cursor","revision","events","cursorLost"}],"acked":[...]}.',
        'A freeze carries the canvas\'s final report as ending.report. Reading changes nothing: call it again and you get the same events.',
        'To mark what you got as read, pass `ack` on your next call: an object of each canvas\'s `revision` from the `canvases` of the result you received ({"<ledger>":"<revision>"}); those cursors move first (only forward), then the inbox is read, so a change that arrived meanwhile is still there.',
        'A refusal is {"error":{"code","message","hint"}}: USAGE when an ack revision is not a commit of its canvas (nothing is moved).',
      ].join(' '),
      args: {
        ack: z
          .record(z.string(), z.string())
          .optional()
          .describe('Optional: {"<ledger>":"<revision>"} from the `canvases` of an inbox you received: those changes are marked as read before this inbox is read.'),
      },
      result: [InboxResultSchema],
      annotations: WATCHING,
    },
    async ({ ack }) => {
      const acked = ack ? (await ackInbox(ctx.ws, { author: ctx.who, cursors: ack })).acked : [];
      return { ...(await readInbox(ctx.ws, { author: ctx.who, viewersOnly: true })), acked };
    },
  );
}
