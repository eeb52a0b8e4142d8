import { CanvasError } from '../model/canvas-error.js';
import { readAccess } from '../store/read-access.js';
import { roleOf } from '../store/role.js';
import type { ServerContext } from './server-context.js';

/**
 * Gate an MCP read (docs/roles.md "Roles": MCP reads need viewer; docs/mcp.md: no default role, an
 * ungranted caller gets a clear error, not a downgraded read).
 *
 * @param ctx - the server's workspace and identity
 * @param ledger - the canvas read
 * @throws CanvasError `NO_ROLE` naming the canvas and its owners; `BAD_LEDGER_ID`,
 *   `CANVAS_NOT_FOUND` from the store
 */
export async function requireViewer(ctx: ServerContext, ledger: string): Promise<void> {
  const access = await readAccess(ctx.ws, { ledger });
  if (roleOf(access.grants, access.creator, ctx.who) !== null) return;
  const owners = Object.entries(access.grants)
    .filter(([who, role]) => who !== '*' && role === 'owner')
    .map(([who]) => who);
  throw new CanvasError(
    'NO_ROLE',
    `${ctx.who} has no role on canvas ${access.ledger}; reading it needs viewer (there is no default role)`,
    `ask an owner of ${access.ledger} (${owners.join(', ') || 'none'}) to run: canvas grant ${access.ledger} ${ctx.who} viewer --why "..."`,
    { who: ctx.who, ledger: access.ledger, needed: 'viewer' },
  );
}
