import { CanvasError } from '../../model/canvas-error.js';
import { AUTHOR_PART } from '../../model/patterns.js';
import { accessJson, readAccessFile } from '../repo/access-file.js';
import { accessFile } from '../repo/layout.js';
import type { Outcome } from '../repo/outcome.js';
import { rejectionOf } from './rejection-of.js';
import { type Grants, ROLES, type Role, roleRank } from '../repo/role.js';
import type { WriteRequest } from './write-requests.js';
import type { Workspace } from '../repo/workspace.js';
import { noRole, roleFor } from './check-role.js';
import { commitFiles } from './commit-document.js';
import type { EditContext } from './edit-input.js';
import { prepareFileWrite } from './prepare-file-write.js';
import { runWrite } from './run-write.js';

/** `canvas grant <ledger> <who|*> <role>`. */
export interface GrantRequest extends WriteRequest {
  /** The who to grant, or `*` for everyone without an explicit grant. */
  who: string;
  role: Role;
}

/** `canvas revoke <ledger> <who>`. */
export interface RevokeRequest extends WriteRequest {
  who: string;
}

/** The grants in force at the context's revision (the creator alone as owner before any grant). */
async function currentGrants(ctx: EditContext): Promise<Grants> {
  const file = await readAccessFile(ctx.reader, ctx.revision!, ctx.ledger);
  if (file) return file.grants;
  return { [ctx.facts!.creator]: 'owner' };
}

/** The author's role for a grant or revoke: the owner's (docs/roles.md, "Roles"). */
async function requireOwner(ctx: EditContext): Promise<'apply'> {
  const role = await roleFor(ctx, ctx.author.who);
  if (role === null) throw noRole(ctx, 'owner');
  if (role !== 'owner') {
    throw new CanvasError(
      'ROLE_TOO_LOW',
      `${ctx.author.who} is ${role} on canvas ${ctx.ledger}; granting and revoking are the owner's`,
      `ask an owner (see \`canvas access ${ctx.ledger}\`) to make the change`,
      { who: ctx.author.who, role },
    );
  }
  return 'apply';
}

function owners(grants: Grants): string[] {
  return Object.entries(grants)
    .filter(([who, role]) => who !== '*' && role === 'owner')
    .map(([who]) => who);
}

/** A grant or a revoke through the write sequence: one commit of the canvas's access file. */
function writeGrants(
  ws: Workspace,
  req: WriteRequest,
  request: { op: 'grant' | 'revoke'; who: string; role?: Role },
  change: (g: Grants, ctx: EditContext) => { grants: Grants; trailer: string },
): Promise<Outcome> {
  return runWrite(ws, () => {
    const prepared = prepareFileWrite(req, request.op, (ledger, why) => ({ ledger, why, ...request }));
    const { ledger } = prepared;
    return {
      ...prepared,
      role: requireOwner,
      write: async (ctx) => {
        const { grants, trailer } = change(await currentGrants(ctx), ctx);
        if (owners(grants).length === 0) {
          throw new CanvasError('LAST_OWNER', `this would leave canvas ${ledger} without an owner`, 'grant owner to someone else first, then change this grant', { ledger });
        }
        return commitFiles(ctx, request.op, null, { 'Canvas-Grant': trailer }, { [accessFile(ledger)]: accessJson(ledger, grants) });
      },
    };
  });
}

/**
 * Grant a role on a canvas (docs/roles.md "Roles"): the owner's; recorded as one commit touching
 * `access/<ledger>.json` with `Canvas-Grant: <who> <role>`. An explicit grant beats `*`; `*`
 * can be at most editor; the last owner cannot be removed.
 *
 * @returns applied (node null) or rejected (`BAD_ROLE`, `BAD_AUTHOR`, `ROLE_TOO_LOW`,
 *   `LAST_OWNER`, `NO_CHANGE`, ...)
 * @throws CanvasError `NO_ROLE`
 */
export function grantRole(ws: Workspace, req: GrantRequest): Promise<Outcome> {
  if (!ROLES.includes(req.role)) {
    return Promise.resolve(rejectionOf(new CanvasError('BAD_ROLE', `"${req.role}" is not a role`, `use one of ${ROLES.join(', ')}`, { role: req.role })));
  }
  if (req.who !== '*' && !AUTHOR_PART.test(req.who)) {
    return Promise.resolve(rejectionOf(new CanvasError('BAD_AUTHOR', `"${req.who}" is not a who (^[A-Za-z0-9][A-Za-z0-9._@:-]*$) nor *`, 'name the who as it appears in --author')));
  }
  if (req.who === '*' && roleRank(req.role) > roleRank('editor')) {
    return Promise.resolve(rejectionOf(new CanvasError('BAD_ROLE', '* can be granted at most editor', 'grant owner to a named who')));
  }
  return writeGrants(ws, req, { op: 'grant', who: req.who, role: req.role }, (g) => {
    if (g[req.who] === req.role) {
      throw new CanvasError('NO_CHANGE', `${req.who} is already ${req.role} on canvas ${req.ledger}`, 'nothing to do');
    }
    return { grants: { ...g, [req.who]: req.role }, trailer: `${req.who} ${req.role}` };
  });
}

/**
 * Revoke a who's explicit grant (docs/roles.md "Roles"): the owner's; the last owner cannot be removed.
 *
 * @returns applied or rejected (`NO_CHANGE` when there is no explicit grant, `LAST_OWNER`, ...)
 * @throws CanvasError `NO_ROLE`
 */
export function revokeRole(ws: Workspace, req: RevokeRequest): Promise<Outcome> {
  return writeGrants(ws, req, { op: 'revoke', who: req.who }, (g) => {
    if (g[req.who] === undefined) {
      throw new CanvasError('NO_CHANGE', `${req.who} holds no explicit grant on canvas ${req.ledger}`, `see \`canvas access ${req.ledger}\``);
    }
    const { [req.who]: _gone, ...rest } = g;
    return { grants: rest, trailer: `${req.who} none` };
  });
}
