import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Workspace } from '../store/index.js';

/** What every tool of one server shares: the one workspace it serves and the identity it acts as. */
export interface ServerContext {
  /** The workspace resolved at start (`--workspace`, else `$CANVAS_WORKSPACE`, else `$OPENCLAW_WORKSPACE`). */
  ws: Workspace;
  /** The `who` of `--as`: the author of every write and the identity reads are gated by. */
  who: string;
  /**
   * Count a tool call in flight, so the server answers every call before it closes, and say when
   * its handler has ended (a cancelled call goes on holding the calls after it until then:
   * docs/mcp.md, "Order of calls").
   */
  track: (call: Promise<CallToolResult>, requestId: string | number) => Promise<CallToolResult>;
  /** The tools registered: each one's handler is tracked ({@link ServerContext.track}). */
  tools: Set<string>;
  /**
   * The tools that change nothing, the caller's own state included: calls to them run side by
   * side; every other call is ordered (docs/mcp.md, "Order of calls").
   */
  reads: Set<string>;
}
