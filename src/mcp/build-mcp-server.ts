import type { CallToolResult, JSONRPCRequest, McpServer } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { AUTHOR_PART } from '../model/patterns.js';
import { readPackageVersion, resolveWorkspace } from '../store/index.js';
import { CanvasSubscriptions } from './canvas-subscriptions.js';
import { guardMessages } from './guard-messages.js';
import { instructionsFor } from './instructions.js';
import { type CallOrder, orderCalls } from './order-calls.js';
import type { ServerContext } from './server-context.js';

/** Options of `createMcpServer` and `startMcpServer`. */
export interface CanvasServerOptions {
  /** The identity (`--as`): a who, `^[A-Za-z0-9][A-Za-z0-9._@:-]*$`. */
  who: string;
  /** The workspace directory (`--workspace`); else `$CANVAS_WORKSPACE`, else `$OPENCLAW_WORKSPACE`. */
  workspace?: string | undefined;
  /** The environment the workspace falls back to (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * The protocol era the server speaks (default `'legacy'`, the `initialize` handshake); a
   * transport's entry that decides the era per connection builds the server for the one asked.
   */
  era?: McpEra;
}

/** The protocol era a server instance speaks: 2025-era (`initialize`) or 2026-07-28 (`server/discover`). */
type McpEra = 'legacy' | 'modern';

/** What one start of the server resolved once, and a way to build a server instance from it. */
export interface BuiltServer {
  /** The workspace served and the identity, resolved once. */
  ctx: ServerContext;
  /**
   * Build one server instance, not yet connected, speaking one era (docs/mcp.md, "Protocol
   * revisions"). The connection's follows are `subscriptions` when given (a connection that may
   * build more than one instance shares them); else the instance makes its own and closes them
   * with itself. With `tool`, the instance holds that tool alone: for a connection that is one
   * `tools/call` of it (a stateless request over HTTP, docs/mcp.md "Over HTTP").
   */
  create: (era: McpEra, subscriptions?: CanvasSubscriptions, tool?: string) => McpServer;
  /** Resolves once every call received so far has been answered (a held call included). */
  idle: () => Promise<void>;
}

/**
 * Resolve the one workspace and check the identity now, load the MCP SDK lazily, and return a
 * way to build the server for any transport (docs/mcp.md): each instance registers the same
 * tools and resources, orders its connection's calls and refuses hostile requests.
 *
 * @param options - `who`, and the workspace (flag value and environment)
 * @returns the context and `create`, `idle`
 * @throws CanvasError `BAD_AUTHOR` for a who that does not match, `NO_WORKSPACE`
 */
export async function buildMcpServer(options: CanvasServerOptions): Promise<BuiltServer> {
  if (!AUTHOR_PART.test(options.who ?? '')) {
    throw new CanvasError('BAD_AUTHOR', `--as ${JSON.stringify(options.who ?? '')} is not a who (^[A-Za-z0-9][A-Za-z0-9._@:-]*$)`, 'pass --as <who>, for example --as planner');
  }
  const ws = resolveWorkspace({ workspace: options.workspace, ...(options.env ? { env: options.env } : {}) });
  const [
    { McpServer },
    { registerReadTools },
    { registerWriteTools },
    { registerLifecycleTools },
    { registerCheckTools },
    { registerViewTools },
    { registerAccessTools },
    { registerWatchTools },
    { registerCanvasResources },
    { registerCanvasApp },
    { registerStepPrompt },
  ] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('./register-read-tools.js'),
    import('./register-write-tools.js'),
    import('./register-lifecycle-tools.js'),
    import('./register-check-tools.js'),
    import('./register-view-tools.js'),
    import('./register-access-tools.js'),
    import('./register-watch-tools.js'),
    import('./register-canvas-resources.js'),
    import('./register-canvas-app.js'),
    import('./register-step-prompt.js'),
  ]);
  const inFlight = new Set<Promise<CallToolResult>>();
  const orders: CallOrder[] = [];
  const ctx: ServerContext = {
    ws,
    who: options.who,
    track: (call, requestId) => {
      inFlight.add(call);
      return call.finally(() => {
        inFlight.delete(call);
        for (const o of orders) o.settled(requestId);
      });
    },
    reads: new Set(),
    tools: new Set(),
  };
  const instructions = instructionsFor(options.who);
  // Which requests change anything (docs/mcp.md, "Order of calls"), and which tool calls say when their handler ends.
  const changes = (r: JSONRPCRequest) =>
    r.method === 'tools/call' ? !ctx.reads.has(String((r.params as { name?: unknown } | undefined)?.name)) : r.method !== 'resources/list' && r.method !== 'resources/templates/list';
  const settles = (r: JSONRPCRequest) => r.method === 'tools/call' && ctx.tools.has(String((r.params as { name?: unknown } | undefined)?.name));

  const create = (era: McpEra, shared?: CanvasSubscriptions, tool?: string): McpServer => {
    const server = new McpServer({ name: 'canvas', version: readPackageVersion() }, { instructions });
    const subscriptions = shared ?? new CanvasSubscriptions(ws);
    if (tool !== undefined) {
      // The SDK's registration of the other tools, their resources and the prompt is most of the
      // cost of an instance, and the one call never reaches them.
      const register = server.registerTool.bind(server) as (name: string, ...rest: unknown[]) => unknown;
      server.registerTool = ((name: string, ...rest: unknown[]) => (name === tool ? register(name, ...rest) : undefined)) as typeof server.registerTool;
    }
    registerReadTools(server, ctx);
    registerWriteTools(server, ctx);
    registerLifecycleTools(server, ctx);
    registerCheckTools(server, ctx);
    registerViewTools(server, ctx);
    registerAccessTools(server, ctx);
    registerWatchTools(server, ctx);
    if (tool === undefined) {
      registerCanvasResources(server, ctx, subscriptions, era);
      registerCanvasApp(server, ctx);
      registerStepPrompt(server, ctx);
    }
    // Every transport the server is connected to refuses hostile requests before the SDK parses
    // them (guard-messages.ts). Installed as the transport starts: the SDK has set its message
    // handler by then, and nothing has been read yet.
    // Then the calls of the connection are ordered (order-calls.ts): a call that changes anything
    // waits for the calls read before it, and the calls read after it wait for its answer.
    const connect = server.connect.bind(server);
    server.connect = async (transport) => {
      const start = transport.start.bind(transport);
      let order: CallOrder | null = null;
      transport.start = async () => {
        guardMessages(transport);
        order = orderCalls(transport, changes, settles);
        orders.push(order);
        await start();
      };
      subscriptions.attach(server.server);
      await connect(transport);
      // A connection's order is forgotten with it: an HTTP entry connects one instance per request.
      const forget = transport.onclose;
      transport.onclose = () => {
        const at = order === null ? -1 : orders.indexOf(order);
        if (at >= 0) orders.splice(at, 1);
        forget?.();
      };
      // Follows the server made for itself live as long as its connection: closed with the
      // transport, whoever closes it, so nothing keeps running after the client has gone.
      if (shared) return;
      const onclose = transport.onclose;
      transport.onclose = () => {
        subscriptions.close();
        onclose?.();
      };
    };
    const close = server.close.bind(server);
    server.close = async () => {
      if (!shared) subscriptions.close();
      await close();
    };
    return server;
  };
  const idle = async () => {
    for (;;) {
      // First let the SDK start every call already read and write every answer already made.
      await new Promise((resolve) => setImmediate(resolve));
      if (inFlight.size === 0 && orders.every((o) => o.pending() === 0)) return;
      await Promise.allSettled([...inFlight, ...orders.map((o) => o.drained())]);
    }
  };
  return { ctx, create, idle };
}
