/**
 * Every canvas as an MCP resource, and subscriptions to them (docs/mcp.md, "Resources and
 * subscriptions").
 *
 * - `canvas://<ledger>` is what `canvas read` prints (`Canvas-Base: <sha>` and the canonical
 *   XML), `text/plain`; the resource template `canvas://{ledger}` names them all, and
 *   `resources/list` lists each canvas the server's identity holds a role on. Reading one needs
 *   viewer, as `canvas_read` does, and makes the reader a watcher as `canvas_read` does.
 * - On a 2025-era connection, `resources/subscribe` to a canvas the identity may read follows it
 *   (canvas-subscriptions.ts); `resources/unsubscribe` stops. The 2026-07-28 revision follows
 *   with `subscriptions/listen` instead (listen-gate.ts).
 *
 * A refusal is a JSON-RPC error -32602 (invalid params) whose `data` is the error shape's `error`.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { listReadableCanvases, readCanvasText, recordWatch } from '../store/index.js';
import { type CanvasSubscriptions, uriOf } from './canvas-subscriptions.js';
import { mcpHint } from './mcp-hint.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';

/**
 * The ledger a `canvas://<ledger>` URI names.
 *
 * @throws ProtocolError -32602 for another scheme or a URI with a path, query or fragment
 */
export function ledgerOf(uri: string): string {
  const m = /^canvas:\/\/([^/?#]+)$/.exec(uri);
  if (!m) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a canvas resource: the URI of a canvas is canvas://<ledger>`, { uri });
  return m[1]!;
}

/**
 * A refusal of the store as the JSON-RPC error a resource request answers: -32602 (invalid
 * params) with the error shape as data. (A canvas that does not exist is -32602 too: the
 * 2026-07-28 revision says so of a resource not found, and the SDK answers it so on every revision.)
 */
export function protocolErrorOf(e: unknown): unknown {
  if (!(e instanceof CanvasError) || e.kind === 'internal') return e;
  const hint = mcpHint(e.hint);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `${e.code}: ${e.message}; ${hint}`, { ...e.toJSON(), hint });
}

/**
 * Register the canvas resources, their template and the subscription handlers on a server not
 * yet connected (docs/mcp.md, "Resources and subscriptions").
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 * @param subscriptions - the connection's follows
 * @param era - the protocol era the server speaks: `resources/subscribe` is a 2025-era request
 */
export function registerCanvasResources(server: McpServer, ctx: ServerContext, subscriptions: CanvasSubscriptions, era: 'legacy' | 'modern'): void {
  server.registerResource(
    'canvas',
    new ResourceTemplate('canvas://{ledger}', {
      list: async () => {
        const { canvases } = await listReadableCanvases(ctx.ws, ctx.who);
        return {
          resources: canvases.map((c) => ({
            uri: uriOf(c.ledger),
            name: c.ledger,
            ...('summary' in c && c.summary ? { title: c.summary.text } : {}),
            mimeType: 'text/plain',
          })),
        };
      },
    }),
    {
      title: 'A canvas',
      description: 'What canvas_read returns: the line Canvas-Base: <sha> (the revision to write against) and the canonical XML. Subscribe to hear when its revision moves.',
      mimeType: 'text/plain',
    },
    async (uri) => {
      const ledger = ledgerOf(uri.href);
      try {
        await requireViewer(ctx, ledger);
        const read = await readCanvasText(ctx.ws, { ledger });
        recordWatch(ctx.ws, ctx.who, ledger, read.revision);
        return { contents: [{ uri: uriOf(ledger), mimeType: 'text/plain', text: `Canvas-Base: ${read.revision}\n${read.xml}` }] };
      } catch (e) {
        throw protocolErrorOf(e);
      }
    },
  );
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  if (era === 'modern') return;
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    const ledger = ledgerOf(uri);
    try {
      await requireViewer(ctx, ledger);
    } catch (e) {
      throw protocolErrorOf(e);
    }
    await subscriptions.follow(uri, [ledger]);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    ledgerOf(request.params.uri);
    subscriptions.unfollow(request.params.uri);
    return {};
  });
}
