import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';

/**
 * Build the canvas MCP server (docs/mcp.md "The tools"): one
 * workspace, resolved now, and one identity; the tools docs/mcp.md lists (canvas_read, canvas_list,
 * canvas_insert, canvas_grant, canvas_render, ...), each with an output schema. The MCP SDK and zod are loaded
 * here, lazily, so the library and the other commands never load them. Connect it to any
 * transport (`server.connect(transport)`); `startMcpServer` serves it over stdio.
 *
 * @param options - `who` (the identity), and the workspace (flag value and environment)
 * @returns the server, not yet connected to a transport
 * @throws CanvasError `BAD_AUTHOR` for a who that does not match, `NO_WORKSPACE`
 */
export async function createMcpServer(options: CanvasServerOptions): Promise<McpServer> {
  return (await buildMcpServer(options)).server;
}
