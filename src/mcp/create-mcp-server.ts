import type { McpServer } from '@modelcontextprotocol/server';
import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';

/**
 * Build the canvas MCP server (docs/mcp.md "The tools"): one workspace, resolved now, and one
 * identity; the tools docs/mcp.md lists, each with an output schema, and every canvas as a
 * resource. The MCP SDK is loaded here, lazily, so the library and the other commands never load
 * it. Connect it to any transport (`server.connect(transport)`), or hand this function to an SDK
 * entry that builds a server per connection for the era its client speaks (`options.era`);
 * `startMcpServer` serves it over stdio, both eras.
 *
 * @param options - `who` (the identity), the workspace (flag value and environment), and the era
 * @returns the server, not yet connected to a transport
 * @throws CanvasError `BAD_AUTHOR` for a who that does not match, `NO_WORKSPACE`
 */
export async function createMcpServer(options: CanvasServerOptions): Promise<McpServer> {
  return (await buildMcpServer(options)).create(options.era ?? 'legacy');
}
