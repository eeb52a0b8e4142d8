import type { Command } from 'commander';
import { stopOnSignal } from '../stop-on-signal.js';

/** Register `canvas mcp --as <who> [--workspace DIR]` (docs/mcp.md). */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the canvas tools to an MCP client over stdio, acting as one identity on one workspace (docs/mcp.md)')
    .requiredOption('--as <who>', 'the identity: the author of every write, the who every role is checked for')
    .option('--workspace <dir>', 'the one workspace served (else $CANVAS_WORKSPACE, else $OPENCLAW_WORKSPACE)')
    .action(async (o: { as: string; workspace?: string }) => {
      // Lazy: the MCP SDK and zod are loaded by this command only (canvas read stays light).
      const { startMcpServer } = await import('../../mcp/start-mcp-server.js');
      // SIGTERM or SIGINT: the calls under way answer, new ones are refused, then the server
      // ends (docs/mcp.md, "Stopping"); a second signal ends it at once.
      const stopping = new AbortController();
      stopOnSignal('canvas mcp', 'answering the calls under way, refusing new ones', () => stopping.abort());
      await startMcpServer({ who: o.as, workspace: o.workspace }, { signal: stopping.signal });
    });
}
