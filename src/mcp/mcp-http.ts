// The MCP server over Streamable HTTP, at `canvas serve`'s `/mcp` (docs/mcp.md, "Over HTTP").
//
// - Each request carries `Authorization: Bearer <agent token>`; the token names its who
//   (store/agent-tokens.ts), read at each request, so a revoked token is refused at its next one.
//   Anything else is 401 with `WWW-Authenticate: Bearer` and nothing is read.
// - One SDK entry per who (`createMcpHandler`), built from `buildMcpServer`'s `create(era)`: the
//   same tools, outcomes and roles as over stdio. 2026-07-28 requests are served per request; the
//   2025 revisions statelessly (a fresh instance per request, no session), answered with one JSON
//   body: the SDK's own stateless fallback would open an event stream for every answer, which
//   the instance, gone with its request, never has anything else to send on.
// - `subscriptions/listen` is checked here first, as the stdio gate does: viewer on every URI, else
//   the whole listen is refused with -32602. One ref watcher, started at the first listen, publishes
//   every move on the bus all the entries' listen streams read. A listen lasts at most
//   `listenMs` (the client listens again), and at most `maxListens` are open per who.
// - Bodies are read here, at most `maxBodyBytes`, strictly UTF-8, then handed to the entry parsed.
import type { BuiltServer } from './build-mcp-server.js';
import { CanvasError } from '../model/canvas-error.js';
import { decodeUtf8Strict } from '../model/decode-utf8-strict.js';
import { RefWatcher, type Workspace, whoOfAgentToken } from '../store/index.js';
import { buildMcpServer } from './build-mcp-server.js';
import { uriOf } from './canvas-subscriptions.js';
import { ledgerOf, protocolErrorOf } from './register-canvas-resources.js';
import { requireViewer } from './require-viewer.js';

/** The bounds of the HTTP entry (docs/mcp.md, "Over HTTP"), in bytes, streams and milliseconds. */
export interface McpHttpLimits {
  /** The largest request body read. */
  maxBodyBytes: number;
  /** Listen streams open at once, per who. */
  maxListens: number;
  /** How long one listen stream lasts before the server ends it. */
  listenMs: number;
  /** The SSE keep-alive comment's period. */
  keepAliveMs: number;
}

/** The limits `canvas serve` runs `/mcp` with: a canvas's input limit twice (JSON escapes XML), 64 listens of 30 minutes. */
const MCP_HTTP_LIMITS: McpHttpLimits = { maxBodyBytes: 2 * 1_048_576 + 65_536, maxListens: 64, listenMs: 30 * 60_000, keepAliveMs: 15_000 };

/** The MCP endpoint of one workspace: a fetch handler and its close. */
export interface McpHttp {
  /** Serve one request to `/mcp`; the caller has checked Host and Origin. */
  fetch: (request: Request) => Promise<Response>;
  /** End every listen stream and the ref watcher. */
  close: () => Promise<void>;
}

interface Entry {
  built: BuiltServer;
  handler: import('@modelcontextprotocol/server').McpHttpHandler;
}

/** A 2025-era request other than a POST: there is no session to open a stream on or delete (the SDK's words). */
const METHOD_NOT_ALLOWED = () => Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }, { status: 405, headers: { Allow: 'POST' } });

function unauthorized(given: boolean): Response {
  const e = new CanvasError(
    'MCP_UNAUTHORIZED',
    given ? 'the bearer token is not an agent token of this workspace (unknown, revoked, or not an agent token)' : 'the request carries no Authorization: Bearer <token>',
    'ask for a token (canvas token add <who>) and send it as Authorization: Bearer <token>',
  );
  return Response.json({ error: e.toJSON() }, { status: 401, headers: { 'WWW-Authenticate': given ? 'Bearer realm="canvas", error="invalid_token"' : 'Bearer realm="canvas"' } });
}

function refused(status: 400 | 413 | 503, e: CanvasError): Response {
  return Response.json({ error: e.toJSON() }, { status });
}

async function readBounded(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body === null) return new Uint8Array();
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Build the MCP endpoint of `canvas serve` for a workspace (docs/mcp.md, "Over HTTP").
 *
 * @param ws - the workspace served
 * @param limits - the bounds (default {@link MCP_HTTP_LIMITS})
 * @returns the endpoint; the MCP SDK is loaded now
 */
export async function createMcpHttp(ws: Workspace, limits: Partial<McpHttpLimits> = {}): Promise<McpHttp> {
  const bounds = { ...MCP_HTTP_LIMITS, ...limits };
  const { createMcpHandler, InMemoryServerEventBus, isLegacyRequest, WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/server');
  const bus = new InMemoryServerEventBus();
  const entries = new Map<string, Promise<Entry>>();
  let watcher: Promise<RefWatcher> | null = null;
  let closed = false;

  const entryOf = (who: string): Promise<Entry> => {
    let entry = entries.get(who);
    if (entry === undefined) {
      entry = buildMcpServer({ who, workspace: ws.root, env: {} }).then((built) => ({
        built,
        handler: createMcpHandler(({ era }) => built.create(era), {
          legacy: 'reject',
          bus,
          maxSubscriptions: bounds.maxListens,
          keepAliveMs: bounds.keepAliveMs,
          maxRequestBodySize: bounds.maxBodyBytes,
          onerror: () => {
            // A request the entry refused is answered to its client; nothing to log.
          },
        }),
      }));
      entries.set(who, entry);
    }
    return entry;
  };

  const watch = (): Promise<RefWatcher> => {
    watcher ??= (async () => {
      const w = new RefWatcher(ws);
      w.subscribe((changes) => {
        for (const c of changes) bus.publish({ kind: 'resource_updated', uri: uriOf(c.ledger) });
        if (changes.some((c) => c.from === null)) bus.publish({ kind: 'resources_list_changed' });
      });
      await w.start();
      return w;
    })();
    return watcher;
  };

  /** The refusal of a listen naming a canvas the who may not read, or null to let it through. */
  const gateListen = async (built: BuiltServer, message: { id?: unknown; params?: unknown }): Promise<Response | null> => {
    const uris = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications?.resourceSubscriptions;
    try {
      if (Array.isArray(uris)) for (const uri of uris) await requireViewer(built.ctx, ledgerOf(String(uri)));
    } catch (e) {
      const { code, message: text, data } = protocolErrorOf(e) as { code: number; message: string; data?: unknown };
      return Response.json({ jsonrpc: '2.0', id: message.id ?? null, error: { code, message: text, ...(data === undefined ? {} : { data }) } });
    }
    await watch();
    return null;
  };

  /**
   * Serve one 2025-era POST as the SDK's stateless fallback does (a fresh instance on a transport
   * with no session, which checks the protocol version header and the body as it does there),
   * but answered with one JSON body instead of an event stream.
   */
  const serveLegacy = async (built: BuiltServer, request: Request, parsedBody: unknown): Promise<Response> => {
    // A call of a tool the server has is served by an instance holding that tool alone; anything
    // else (a tool it has not, a batch, any other method) by the whole server.
    const call = parsedBody as { method?: unknown; params?: { name?: unknown } } | null;
    const name = call?.method === 'tools/call' ? call.params?.name : undefined;
    const server = typeof name === 'string' && built.ctx.tools.has(name) ? built.create('legacy', undefined, name) : built.create('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: bounds.maxBodyBytes });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody });
    } catch {
      const id = (parsedBody as { id?: unknown } | null)?.id;
      return Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: typeof id === 'string' || typeof id === 'number' ? id : null }, { status: 500 });
    } finally {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    }
  };

  const fetch = async (request: Request): Promise<Response> => {
    const header = request.headers.get('authorization');
    const token = header === null ? null : /^Bearer ([^\s]+)$/i.exec(header.trim())?.[1];
    if (header === null || token === undefined || token === null) return unauthorized(header !== null);
    const who = whoOfAgentToken(ws, token);
    if (who === null) return unauthorized(true);
    const entry = await entryOf(who);
    if (request.method !== 'POST') return (await isLegacyRequest(request)) ? METHOD_NOT_ALLOWED() : entry.handler.fetch(request);
    const bytes = await readBounded(request, bounds.maxBodyBytes);
    if (bytes === null) {
      return refused(413, new CanvasError('SERVE_BAD_REQUEST', `the body is over ${bounds.maxBodyBytes} bytes`, 'a node is at most 128 KiB and a canvas 1 MiB: send less', { rule: 'size' }));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeUtf8Strict(bytes, 'the body'));
    } catch (e) {
      if (e instanceof CanvasError) return refused(400, e);
      return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } }, { status: 400 });
    }
    let signal = request.signal;
    const message = parsed as { method?: unknown; id?: unknown; params?: unknown } | null;
    if (message !== null && typeof message === 'object' && message.method === 'subscriptions/listen') {
      const refusal = await gateListen(entry.built, message);
      if (refusal !== null) return refusal;
      signal = AbortSignal.any([request.signal, AbortSignal.timeout(bounds.listenMs)]);
    }
    if (closed) return refused(503, new CanvasError('SERVER_STOPPING', 'the server is stopping: it takes no new request', 'start canvas serve again, then send it again'));
    // The body is read: the transport is handed it parsed, and reads only the request's headers and signal.
    if (await isLegacyRequest(request, parsed)) return serveLegacy(entry.built, request, parsed);
    const forwarded = new Request(request.url, { method: 'POST', headers: request.headers, signal });
    return entry.handler.fetch(forwarded, { parsedBody: parsed });
  };

  return {
    fetch,
    async close() {
      closed = true;
      for (const entry of entries.values()) await (await entry).handler.close();
      if (watcher !== null) (await watcher).close();
    },
  };
}
