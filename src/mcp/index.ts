/**
 * The declared surface of `task-canvas/mcp` (docs/library.md, "Entries"): the MCP server for agents.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export type { CanvasServerOptions } from './build-mcp-server.js';
export { createMcpServer } from './create-mcp-server.js';
export { startMcpServer } from './start-mcp-server.js';
