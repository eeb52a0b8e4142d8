import { PassThrough } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';
import { CanvasSubscriptions } from './canvas-subscriptions.js';
import { gateListens } from './listen-gate.js';
import { ledgerOf, protocolErrorOf } from './register-canvas-resources.js';
import { requireViewer } from './require-viewer.js';
import { StrictLines } from './strict-lines.js';

/**
 * Count the requests a transport has received and not answered (docs/mcp.md, "Running it"): an
 * answer, or the client's cancel, settles one; and say when the transport has closed. A
 * `subscriptions/listen` is not counted: it is answered only when the connection ends.
 */
function countRequests(inner: Transport): { transport: Transport; drained: () => Promise<void>; closed: Promise<void> } {
  const open = new Set<string>();
  const waiting: Array<() => void> = [];
  const key = (id: unknown) => `${typeof id} ${String(id)}`;
  const settle = (id: unknown) => {
    open.delete(key(id));
    if (open.size === 0) for (const w of waiting.splice(0)) w();
  };
  const transport: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message: JSONRPCMessage, options) => {
      if (!('method' in message) && 'id' in message) settle(message.id);
      return inner.send(message, options);
    },
  };
  inner.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message && message.method !== 'subscriptions/listen') open.add(key(message.id));
    if ('method' in message && !('id' in message) && message.method === 'notifications/cancelled') settle((message.params as { requestId?: unknown } | undefined)?.requestId);
    transport.onmessage?.(message, extra);
  };
  const closed = new Promise<void>((resolve) => {
    inner.onclose = () => {
      transport.onclose?.();
      resolve();
    };
  });
  inner.onerror = (error) => transport.onerror?.(error);
  const drained = () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  return { transport, drained, closed };
}

/**
 * Serve the canvas MCP server over stdio (`canvas mcp --as <who> [--workspace DIR]`, docs/mcp.md)
 * until the client closes stdin; every call received by then is answered before the server
 * closes. The SDK's stdio entry decides the protocol era from the client's opening (an
 * `initialize` handshake, or a 2026-07-28 `server/discover` or enveloped request) and pins one
 * server instance of that era for the connection. Nothing but the protocol is written to stdout;
 * faults of the server go to stderr.
 *
 * A line that is not well-formed UTF-8 is refused before the SDK reads it (`BAD_ENCODING`,
 * src/mcp/strict-lines.ts). When `run.signal` aborts (the CLI's SIGTERM or SIGINT), the server
 * stops as its client closing stdin would stop it, and besides answers every request that arrives
 * meanwhile with `SERVER_STOPPING` (docs/mcp.md, "Stopping").
 *
 * @param options - `who` (the identity), and the workspace (flag value and environment)
 * @param run - `signal`: stop, answering the calls under way and refusing new ones
 * @returns when the client has gone (or the server was stopped) and the server is closed
 * @throws CanvasError `BAD_AUTHOR`, `NO_WORKSPACE` before anything is served; `TOO_LARGE` when a
 *   message grew past the stdio transport's limit (10 MiB) and the server had to stop
 */
export async function startMcpServer(options: CanvasServerOptions, run: { signal?: AbortSignal } = {}): Promise<void> {
  const built = await buildMcpServer(options);
  const [{ serveStdio, StdioServerTransport }, { STDIO_DEFAULT_MAX_BUFFER_SIZE }] = await Promise.all([import('@modelcontextprotocol/server/stdio'), import('@modelcontextprotocol/server')]);
  // The transport reads a stream this function ends only once every call received is answered:
  // the SDK's transport closes as its input ends, and would drop the answers still to come.
  const input = new PassThrough();
  let ended = false;
  let lastError: Error | null = null;
  const wire = new StdioServerTransport(input, process.stdout);
  const subscriptions = new CanvasSubscriptions(built.ctx.ws);
  const counted = countRequests(wire);
  const check = async (uri: string): Promise<string> => {
    const ledger = ledgerOf(uri);
    try {
      await requireViewer(built.ctx, ledger);
    } catch (e) {
      throw protocolErrorOf(e);
    }
    return ledger;
  };
  const transport = gateListens(counted.transport, subscriptions, check);
  const end = () => {
    if (ended) return;
    ended = true;
    // Let what stdin delivered reach the transport, then wait for its answers.
    setImmediate(() => void counted.drained().then(() => input.end()));
  };
  // Every line checked on its way (strict-lines.ts); the stream ends once the last line went through.
  const strict = new StrictLines(
    (message) => process.stdout.write(message),
    STDIO_DEFAULT_MAX_BUFFER_SIZE,
    (line) => process.stderr.write(`${line}\n`),
  );
  strict.once('end', end);
  process.stdin.once('close', end);
  process.stdin.pipe(strict).pipe(input, { end: false });
  const stop = () => {
    strict.stop();
    end();
  };
  if (run.signal?.aborted) stop();
  else run.signal?.addEventListener('abort', stop, { once: true });
  const handle = serveStdio(({ era }) => built.create(era, subscriptions), {
    transport,
    // Faults of the transport (a line that is not JSON-RPC, a message over the size limit) are
    // said on stderr; stdout carries the protocol only.
    onerror: (error) => {
      lastError = error;
      process.stderr.write(`canvas mcp: ${error.message.split('\n')[0]}\n`);
    },
  });
  await counted.closed;
  await handle.close();
  subscriptions.close();
  process.stdin.unpipe(strict);
  strict.unpipe(input);
  // Stopped while the client still holds stdin open: let go of it, so the process can end.
  if (run.signal?.aborted) process.stdin.destroy();
  if (!ended) {
    // The transport stopped by itself while the client was still sending: the SDK's stdio
    // transport does that only when a message grows past its buffer, and the rest of that
    // message cannot be told from the next ones, so the server cannot go on.
    process.stdin.pause();
    throw new CanvasError(
      'TOO_LARGE',
      `a message from the client grew past the MCP stdio transport's limit of ${STDIO_DEFAULT_MAX_BUFFER_SIZE.toLocaleString('en-US')} bytes without ending; the server stopped (${(lastError as Error | null)?.message ?? 'the transport closed'})`,
      'send smaller messages: a node is at most 128 KiB and a canvas at most 1 MiB (docs/canonical.md "Size limits"); then start the server again',
      { limit: STDIO_DEFAULT_MAX_BUFFER_SIZE },
    );
  }
}
