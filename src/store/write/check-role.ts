import { CanvasError } from '../../model/canvas-error.js';
import type { Author } from '../../model/parse-author.js';
import { readAccessFile } from '../repo/access-file.js';
import type { CanvasFacts } from '../repo/canvas-facts.js';
import { type Role, roleOf } from '../repo/role.js';
import type { EditContext, EditSpec } from './edit-input.js';

/** The role a who holds on the canvas at its current revision (docs/roles.md "Roles"). */
export async function roleFor(ctx: EditContext, who: string): Promise<Role | null> {
  const file = await readAccessFile(ctx.reader, ctx.revision!, ctx.ledger);
  const grants = file ? (file.grants ?? null) : null;
  return roleOf(grants, ctx.facts!.creator, who);
}

/** The error for a `who` holding no role on a canvas (exit 5). */
export function noRole(ctx: { ledger: string; author: Author; facts: CanvasFacts | null }, needed: Role): CanvasError {
  return new CanvasError(
    'NO_ROLE',
    `${ctx.author.who} has no role on canvas ${ctx.ledger}; this needs ${needed} (there is no default role)`,
    `ask an owner of ${ctx.ledger} (see \`canvas access ${ctx.ledger}\`; the creator is ${ctx.facts?.creator || 'unknown'}) to run: canvas grant ${ctx.ledger} ${ctx.author.who} ${needed} --why "..."`,
    { who: ctx.author.who, ledger: ctx.ledger, needed },
  );
}

/**
 * Check the author's role for an edit (docs/roles.md "Roles"): the creator is owner; there is no
 * default role. Editors and owners apply; a commenter's node edit becomes a proposal; a viewer's
 * write, a commenter's freeze and a commenter's approval are refused. A create needs no role.
 *
 * @param approving - whether the edit replays a proposal being approved
 * @returns whether the edit is applied or stored as a proposal
 * @throws CanvasError `NO_ROLE` (exit 5), `ROLE_TOO_LOW`
 */
export async function checkEditRole(ctx: EditContext, spec: EditSpec, approving: boolean): Promise<'apply' | 'propose'> {
  const { ledger } = ctx;
  if (spec.op === 'create') return 'apply';
  const role = await roleFor(ctx, ctx.author.who);
  // An ending (freeze, abandon) is an editor's or owner's, like approving (docs/store.md, "Endings").
  const ending = spec.op === 'freeze' || spec.op === 'abandon';
  if (role === null) throw noRole(ctx, approving || ending ? 'editor' : 'commenter');
  if (approving && role !== 'editor' && role !== 'owner') {
    throw new CanvasError(
      'ROLE_TOO_LOW',
      `${ctx.author.who} is ${role} on canvas ${ledger}; approving a proposal needs editor or owner`,
      `ask an owner of ${ledger} for editor: canvas grant ${ledger} ${ctx.author.who} editor --why "..."`,
      { who: ctx.author.who, role },
    );
  }
  if (role === 'viewer' || (role === 'commenter' && ending)) {
    throw new CanvasError(
      'ROLE_TOO_LOW',
      `${ctx.author.who} is ${role} on canvas ${ledger}; ${ending ? `${spec.op === 'freeze' ? 'freezing' : 'abandoning'} needs editor or owner` : 'a viewer cannot write or propose'}`,
      `ask an owner of ${ledger} to run: canvas grant ${ledger} ${ctx.author.who} ${ending ? 'editor' : 'commenter'} --why "..."`,
      { who: ctx.author.who, role },
    );
  }
  return role === 'commenter' ? 'propose' : 'apply';
}
