import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildMcpServer, type CanvasServerOptions } from './build-mcp-server.js';

/**
 * Build the canvas MCP server (docs/mcp.md "The tools"): one
 * workspace, resolved now, and one identity; thirteen tools (canvas_read, canvas_history,
 * canvas_log, canvas_prompt, canvas_list_proposals, canvas_insert, canvas_replace, canvas_remove,
 * canvas_move, canvas_approve_proposal, canvas_reject_proposal, canvas_open, canvas_check). The MCP SDK and zod are loaded
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
