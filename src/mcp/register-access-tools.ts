import type { McpServer } from '@modelcontextprotocol/server';
import { grantRole, revokeRole, type Role } from '../store/index.js';
import { authorOfCall } from './author-of-call.js';
import { str } from './json-schema.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { PLAIN_OUTCOME } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { OVERWRITES } from './tool-annotations.js';
import { roleArg, WRITE, WRITE_REQUIRED } from './tool-arguments.js';

interface AccessArgs {
  ledger: string;
  why: string;
  who: string;
  idempotencyKey?: string;
  step?: string;
  run?: string;
}

/**
 * Register canvas_grant and canvas_revoke (docs/roles.md "Roles", docs/mcp.md "The tools"): the
 * owner's, through the store's `grantRole` and `revokeRole` as the server's identity.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerAccessTools(server: McpServer, ctx: ServerContext): void {
  const common = (a: AccessArgs) => ({ ledger: a.ledger, why: a.why, who: a.who, author: authorOfCall(ctx.who, a.step, a.run), idempotencyKey: a.idempotencyKey });

  registerCanvasTool(
    server,
    ctx,
    'canvas_grant',
    {
      description: 'Give who (a who, or "*": everyone without a grant of their own, at most editor) a role on the canvas, replacing their earlier one (owners only).',
      args: { properties: { ...WRITE, who: str, role: roleArg }, required: [...WRITE_REQUIRED, 'who', 'role'] },
      result: PLAIN_OUTCOME,
      // A grant replaces the who's earlier role, which may be a higher one; the same grant again is NO_CHANGE.
      annotations: OVERWRITES,
    },
    async (a: AccessArgs & { role: Role }) => grantRole(ctx.ws, { ...common(a), role: a.role }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_revoke',
    {
      description: 'Take back the grant of who (owners only); the last owner stays.',
      args: { properties: { ...WRITE, who: str }, required: [...WRITE_REQUIRED, 'who'] },
      result: PLAIN_OUTCOME,
      // The who loses their role; the same revoke again is NO_CHANGE.
      annotations: OVERWRITES,
    },
    async (a: AccessArgs) => revokeRole(ctx.ws, common(a)),
  );
}
