import { checkLedgerId } from '../../model/check-ledger-id.js';
import { readAccessFile } from '../repo/access-file.js';
import { canvasFacts } from '../repo/canvas-facts.js';
import { RepoReader } from '../repo/repo-reader.js';
import { type Grants, type Role, roleOf } from '../repo/role.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/** A canvas's grants as `canvas access` shows them. */
export interface AccessReport {
  ledger: string;
  revision: string;
  /** The who of the create commit. */
  creator: string;
  /** Explicit grants (the creator alone as owner before the first grant). */
  grants: Grants;
}

/**
 * Read a canvas's grants (docs/roles.md "Roles", `canvas access`).
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`
 */
export async function readAccess(ws: Workspace, options: { ledger: string }, reader?: RepoReader): Promise<AccessReport> {
  const ledger = checkLedgerId(options.ledger);
  const r = reader ?? new RepoReader(ws);
  try {
    const revision = await r.revision(ledger);
    if (!revision) throw canvasNotFound(ws.root, ledger);
    const facts = await canvasFacts(r, ledger, revision);
    const file = await readAccessFile(r, revision, ledger);
    const grants = file ? file.grants : { [facts.creator]: 'owner' as Role };
    return { ledger, revision, creator: facts.creator, grants };
  } finally {
    if (!reader) r.close();
  }
}

/**
 * The role a who holds on a canvas, or null (no default role). Used by surfaces that gate reads
 * (the MCP server's reads need viewer).
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`
 */
export async function roleOnCanvas(ws: Workspace, options: { ledger: string; who: string }): Promise<Role | null> {
  const access = await readAccess(ws, { ledger: options.ledger });
  return roleOf(access.grants, access.creator, options.who);
}
