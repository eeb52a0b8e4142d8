import type { McpServer } from '@modelcontextprotocol/server';
import { ackInbox, type InboxEvent, readInbox, unwatchCanvas, watchCanvas, type WatchResult } from '../store/index.js';
import { str } from './json-schema.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { INBOX_RESULT, WATCH_RESULT } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { OVERWRITES, WRITE } from './tool-annotations.js';

/** A watch as canvas_watch answers it: the caller and the canvas are the call's own. */
const watched = (r: WatchResult) => ({ ledger: r.ledger, watching: r.watching, changed: r.changed, since: r.watch?.since ?? null, cursor: r.watch?.cursor ?? null });

/**
 * The inbox's events without what they would say twice (docs/mcp.md, "Watches and the inbox"):
 * an ending's report is its commit's reason; a node's state before an event is left out when an
 * earlier event of the answer ends with it; a waiting proposal's reason is left out when its own
 * event is in the answer.
 */
function compact(events: readonly InboxEvent[]): object[] {
  const last = new Map<string, string>();
  return events.map((e) => {
    const { ending, diff, ...rest } = e;
    let change: object | null = diff;
    if (diff) {
      const key = `${e.ledger} ${diff.node}`;
      const known = last.get(key);
      change = known !== undefined && diff.before !== null && diff.before.xml === known ? (({ before: _, ...d }) => d)(diff) : diff;
      if (diff.after) last.set(key, diff.after.xml);
      else last.delete(key);
    }
    return { ...rest, diff: change, ...(ending ? { ending: { kind: ending.kind } } : {}) };
  });
}

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
      description: 'Follow a canvas: its changes reach your inbox (reading or writing it does so already).',
      args: { properties: { ledger: str }, required: ['ledger'] },
      result: WATCH_RESULT,
      // It changes the caller's own state, never a canvas; a second watch keeps the first.
      annotations: WRITE,
    },
    async ({ ledger }: { ledger: string }) => {
      await requireViewer(ctx, ledger);
      return watched(await watchCanvas(ctx.ws, { ledger, author: ctx.who }));
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_unwatch',
    {
      description: 'Stop following a canvas; its cursor is dropped.',
      args: { properties: { ledger: str }, required: ['ledger'] },
      result: WATCH_RESULT,
      // It drops the watch and its cursor, as a revoke drops a grant; a second unwatch is NOT_WATCHING.
      annotations: OVERWRITES,
    },
    async ({ ledger }: { ledger: string }) => watched(await unwatchCanvas(ctx.ws, { ledger, author: ctx.who })),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_inbox',
    {
      description:
        "Others' changes on the canvases you follow, oldest first, each with its node's diff, and the proposals waiting for your decision. It marks nothing read: pass ack ({ledger: revision} from the answer's canvases) on your next call, and those cursors move first.",
      args: { properties: { ack: { type: 'object', additionalProperties: str } }, required: [] },
      result: INBOX_RESULT,
      // It moves the caller's own cursors, forward only; the same ack again moves nothing.
      annotations: WRITE,
    },
    async ({ ack }: { ack?: Record<string, string> }) => {
      const acked = ack ? (await ackInbox(ctx.ws, { author: ctx.who, cursors: ack })).acked : [];
      const inbox = await readInbox(ctx.ws, { author: ctx.who, viewersOnly: true });
      const proposed = new Set(inbox.events.flatMap((e) => (e.op === 'propose' && e.proposal ? [e.proposal.id] : [])));
      return {
        events: compact(inbox.events),
        waiting: inbox.waiting.map(({ why, ...p }) => (proposed.has(p.id) ? p : { ...p, why })),
        canvases: inbox.canvases,
        acked,
      };
    },
  );
}
