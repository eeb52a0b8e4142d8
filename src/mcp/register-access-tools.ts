import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { grantRole, revokeRole } from '../store/access-writes.js';
import type { Role } from '../store/role.js';
import { authorOfCall } from './author-of-call.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import type { ServerContext } from './server-context.js';
import { WRITE } from './tool-annotations.js';
import { writeArgs } from './tool-arguments.js';

const whoArg = z
  .string()
  .describe('The who the grant is for (^[A-Za-z0-9][A-Za-z0-9._@:-]*$, the name another server runs --as), or "*" for everyone without a grant of their own (at most editor).');

const RESULT =
  'Result: the outcome as structured content and as JSON text: {"outcome":"applied","revision","node":null,"diff":[]}, or {"outcome":"rejected",...}: ROLE_TOO_LOW unless you are an owner, NO_CHANGE, LAST_OWNER, BAD_ROLE, BAD_AUTHOR.';

/**
 * Register canvas_grant and canvas_revoke (docs/roles.md "Roles", docs/mcp.md "The tools"): the
 * owner's, through the store's `grantRole` and `revokeRole` as the server's identity. The role
 * is a plain string here so that a bad one is the store's `rejected` outcome (`BAD_ROLE`).
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerAccessTools(server: McpServer, ctx: ServerContext): void {
  const common = (a: { ledger: string; why: string; idempotencyKey?: string | undefined; step?: string | undefined; run?: string | undefined }) => ({
    ledger: a.ledger,
    why: a.why,
    author: authorOfCall(ctx.who, a.step, a.run),
    idempotencyKey: a.idempotencyKey,
  });

  registerCanvasTool(
    server,
    ctx,
    'canvas_grant',
    {
      title: 'Grant a role on a canvas',
      description: [
        'Give a who a role on this canvas (owners only): viewer reads; commenter proposes edits an editor or owner decides; editor edits and decides proposals; owner also grants and revokes.',
        'A grant replaces the who\'s earlier role; an explicit grant beats "*"; the last owner cannot be removed.',
        RESULT,
      ].join(' '),
      args: { ...writeArgs, who: whoArg, role: z.string().describe('The role: viewer, commenter, editor or owner.') },
      result: 'outcome',
      // A grant replaces the who's earlier role, which may be a higher one; the same grant again is NO_CHANGE.
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) => grantRole(ctx.ws, { ...common(a), who: a.who, role: a.role as Role }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_revoke',
    {
      title: 'Revoke a role on a canvas',
      description: ['Remove a who\'s explicit grant on this canvas (owners only); they keep what "*" grants, if anything. The last owner cannot be removed.', RESULT].join(' '),
      args: { ...writeArgs, who: whoArg },
      result: 'outcome',
      // The who loses their role; the same revoke again is NO_CHANGE.
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) => revokeRole(ctx.ws, { ...common(a), who: a.who }),
  );
}
