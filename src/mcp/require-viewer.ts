import { CanvasError } from '../model/canvas-error.js';
import { readAccess, roleOf } from '../store/index.js';
import type { ServerContext } from './server-context.js';

/**
 * The owners of a canvas, by their who (the creator alone before any grant).
 *
 * @param ctx - the server's workspace
 * @param ledger - the canvas
 * @returns the owners, in the access file's order
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND` from the store
 */
export async function ownersOf(ctx: ServerContext, ledger: string): Promise<string[]> {
  const access = await readAccess(ctx.ws, { ledger });
  return Object.entries(access.grants)
    .filter(([who, role]) => who !== '*' && role === 'owner')
    .map(([who]) => who);
}

/**
 * The hint of `NO_ROLE` over MCP (docs/mcp.md, "No role"): who owns the canvas, and the
 * `canvas_grant` call one of them would make, word for word.
 *
 * @param ledger - the canvas
 * @param owners - its owners
 * @param who - the identity that holds no role
 * @param needed - the role the call needed
 */
export function noRoleHint(ledger: string, owners: readonly string[], who: string, needed: string): string {
  return `ask an owner of ${ledger} (${owners.join(', ') || 'none'}) to call canvas_grant with ledger ${ledger}, who ${who}, role ${needed} and a why`;
}

/**
 * Gate an MCP read (docs/roles.md "Roles": MCP reads need viewer; docs/mcp.md: no default role, an
 * ungranted caller gets a clear error, not a downgraded read).
 *
 * @param ctx - the server's workspace and identity
 * @param ledger - the canvas read
 * @throws CanvasError `NO_ROLE` naming the canvas, its owners and the grant to ask for;
 *   `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND` from the store
 */
export async function requireViewer(ctx: ServerContext, ledger: string): Promise<void> {
  const access = await readAccess(ctx.ws, { ledger });
  if (roleOf(access.grants, access.creator, ctx.who) !== null) return;
  throw new CanvasError(
    'NO_ROLE',
    `${ctx.who} has no role on canvas ${access.ledger}; reading it needs viewer (there is no default role)`,
    noRoleHint(access.ledger, await ownersOf(ctx, access.ledger), ctx.who, 'viewer'),
    { who: ctx.who, ledger: access.ledger, needed: 'viewer' },
  );
}
