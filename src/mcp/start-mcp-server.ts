import { CanvasError } from '../model/canvas-error.js';
import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';

/**
 * Serve the canvas MCP server over stdio (`canvas mcp --as <who> [--workspace DIR]`, docs/mcp.md)
 * until the client closes stdin; every call received by then is answered before the server
 * closes. Nothing but the protocol is written to stdout; faults of the server go to stderr.
 *
 * @param options - `who` (the identity), and the workspace (flag value and environment)
 * @returns when the client has gone and the server is closed
 * @throws CanvasError `BAD_AUTHOR`, `NO_WORKSPACE` before anything is served; `TOO_LARGE` when a
 *   message grew past the stdio transport's limit (10 MiB) and the server had to stop
 */
export async function startMcpServer(options: CanvasServerOptions): Promise<void> {
  const { server, idle } = await buildMcpServer(options);
  const [{ StdioServerTransport }, { STDIO_DEFAULT_MAX_BUFFER_SIZE }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
  ]);
  let ended = false;
  let lastError: Error | null = null;
  const closed = new Promise<void>((resolve) => {
    const end = () => {
      ended = true;
      resolve();
    };
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    server.server.onclose = resolve;
  });
  // Faults of the transport (a line that is not JSON-RPC, a message over the size limit) are
  // said on stderr; stdout carries the protocol only.
  server.server.onerror = (error) => {
    lastError = error;
    process.stderr.write(`canvas mcp: ${error.message.split('\n')[0]}\n`);
  };
  await server.connect(new StdioServerTransport());
  await closed;
  await idle();
  await server.close();
  if (!ended) {
    // The transport stopped by itself while the client was still sending: the SDK's stdio
    // transport does that only when a message grows past its buffer, and the rest of that
    // message cannot be told from the next ones, so the server cannot go on.
    throw new CanvasError(
      'TOO_LARGE',
      `a message from the client grew past the MCP stdio transport's limit of ${STDIO_DEFAULT_MAX_BUFFER_SIZE.toLocaleString('en-US')} bytes without ending; the server stopped (${(lastError as Error | null)?.message ?? 'the transport closed'})`,
      'send smaller messages: a node is at most 128 KiB and a canvas at most 1 MiB (docs/canonical.md "Size limits"); then start the server again',
      { limit: STDIO_DEFAULT_MAX_BUFFER_SIZE },
    );
  }
}
