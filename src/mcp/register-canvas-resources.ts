/**
 * Every canvas as an MCP resource, and subscriptions to them (docs/mcp.md, "Resources and
 * subscriptions").
 *
 * - `canvas://<ledger>` is what `canvas read` prints (`Canvas-Base: <sha>` and the canonical
 *   XML), `text/plain`; the resource template `canvas://{ledger}` names them all, and
 *   `resources/list` lists each canvas the server's identity holds a role on. Reading one needs
 *   viewer, as `canvas_read` does, and makes the reader a watcher as `canvas_read` does.
 * - `resources/subscribe` to a canvas the identity may read: when its revision moves, the server
 *   sends `notifications/resources/updated` with its URI. A new canvas is
 *   `notifications/resources/list_changed`. The moves are seen by one ref watcher per server
 *   (store/ref-watcher.ts), started at the first subscription and closed with the server or its
 *   transport, so an idle server holds no watch and a closed one leaves nothing running.
 *
 * A refusal is a JSON-RPC error whose `data` is the error shape's `error`: -32002 (resource not
 * found) for a canvas that does not exist, -32602 (invalid params) for any other refusal.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CanvasError } from '../model/canvas-error.js';
import { listReadableCanvases } from '../store/list-readable-canvases.js';
import { readCanvasText } from '../store/read-canvas.js';
import { type RefChange, RefWatcher } from '../store/ref-watcher.js';
import { recordWatch } from '../store/watch-canvas.js';
import { mcpHint } from './mcp-hint.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';

/** The URI of a canvas's resource. */
const uriOf = (ledger: string): string => `canvas://${ledger}`;

/** JSON-RPC's code for a resource that does not exist (MCP, "Resources": error handling). */
const RESOURCE_NOT_FOUND = -32002;

/** What the subscriptions of one server need from the outside: the low-level server, to notify. */
interface Notifier {
  sendResourceUpdated: (params: { uri: string }) => Promise<void>;
  sendResourceListChanged: () => Promise<void>;
}

/**
 * The ledger a `canvas://<ledger>` URI names.
 *
 * @throws McpError -32602 for another scheme or a URI with a path, query or fragment
 */
function ledgerOf(uri: string): string {
  const m = /^canvas:\/\/([^/?#]+)$/.exec(uri);
  if (!m) throw new McpError(ErrorCode.InvalidParams, `${uri} is not a canvas resource: the URI of a canvas is canvas://<ledger>`, { uri });
  return m[1]!;
}

/** A refusal of the store as the JSON-RPC error a resource request answers. */
function mcpErrorOf(e: unknown): unknown {
  if (!(e instanceof CanvasError) || e.kind === 'internal') return e;
  const code = e.code === 'CANVAS_NOT_FOUND' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
  const hint = mcpHint(e.hint);
  return new McpError(code, `${e.code}: ${e.message}; ${hint}`, { ...e.toJSON(), hint });
}

/**
 * The subscriptions of one server: which canvases its client follows, and the one ref watcher
 * that tells it when they move. One owner, one lifecycle: {@link Subscriptions.close} once.
 */
class Subscriptions {
  private readonly followed = new Set<string>();
  private watcher: RefWatcher | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly notify: Notifier,
  ) {}

  /** Follow a canvas; the first one starts the watcher (its refs are read now, so no later move is missed). */
  async add(ledger: string): Promise<void> {
    this.followed.add(ledger);
    if (this.closed || this.watcher) return this.starting ?? undefined;
    const watcher = new RefWatcher(this.ctx.ws);
    this.watcher = watcher;
    watcher.subscribe((changes) => this.tell(changes));
    this.starting = watcher.start();
    await this.starting;
  }

  /** Stop following a canvas (following none leaves the watcher running until the server closes). */
  remove(ledger: string): void {
    this.followed.delete(ledger);
  }

  /** Stop the watcher; nothing more is sent. */
  close(): void {
    this.closed = true;
    this.followed.clear();
    this.watcher?.close();
  }

  private tell(changes: RefChange[]): void {
    if (this.closed) return;
    const sent = (p: Promise<void>) =>
      p.catch(() => {
        // The client went away; nothing is left to tell.
      });
    for (const c of changes) if (this.followed.has(c.ledger)) void sent(this.notify.sendResourceUpdated({ uri: uriOf(c.ledger) }));
    if (changes.some((c) => c.from === null)) void sent(this.notify.sendResourceListChanged());
  }
}

/**
 * Register the canvas resources, their template and the subscription handlers on a server not
 * yet connected (docs/mcp.md, "Resources and subscriptions").
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 * @returns a function that stops the subscriptions' watcher (called when the server closes)
 */
export function registerCanvasResources(server: McpServer, ctx: ServerContext): () => void {
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
        throw mcpErrorOf(e);
      }
    },
  );
  const subscriptions = new Subscriptions(ctx, server.server);
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const ledger = ledgerOf(request.params.uri);
    try {
      await requireViewer(ctx, ledger);
    } catch (e) {
      throw mcpErrorOf(e);
    }
    await subscriptions.add(ledger);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.remove(ledgerOf(request.params.uri));
    return {};
  });
  return () => subscriptions.close();
}
