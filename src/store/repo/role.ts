/** The role ladder (docs/roles.md "Roles"): each role includes the ones below it. */
export type Role = 'viewer' | 'commenter' | 'editor' | 'owner';

/** The roles, lowest first. */
export const ROLES: readonly Role[] = ['viewer', 'commenter', 'editor', 'owner'];

/** The grants of one canvas: `who` (or `*`) to role. */
export type Grants = Record<string, Role>;

/** The rank of a role, 0 for viewer. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/**
 * The role `who` holds: an explicit grant beats `*`; with no access file the creator is the
 * only owner. No default role: null when nothing grants one.
 *
 * @param grants - the access file's grants, or null when the canvas has none yet
 * @param creator - the who of the create commit
 * @param who - the caller
 */
export function roleOf(grants: Grants | null, creator: string, who: string): Role | null {
  const g = grants ?? { [creator]: 'owner' };
  return g[who] ?? g['*'] ?? null;
}
