import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';

/**
 * Serve the canvas MCP server over stdio (`canvas mcp --as <who> [--workspace DIR]`, docs/mcp.md)
 * until the client closes stdin; every call received by then is answered before the server
 * closes. Nothing but the protocol is written to stdout; faults of the server go to stderr.
 *
 * @param options - `who` (the identity), and the workspace (flag value and environment)
 * @returns when the client has gone and the server is closed
 * @throws CanvasError `BAD_AUTHOR`, `NO_WORKSPACE` before anything is served
 */
export async function startMcpServer(options: CanvasServerOptions): Promise<void> {
  const { server, idle } = await buildMcpServer(options);
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await idle();
  await server.close();
}
