import { CanvasError } from '../../model/canvas-error.js';
import { type CanvasListEntry, type CanvasListFailure, type ListOptions, listCanvasEntries } from './list-canvas-entries.js';
import { readAccess } from './read-access.js';
import { RepoReader } from '../repo/repo-reader.js';
import { type Role, roleOf } from '../repo/role.js';
import type { Workspace } from '../repo/workspace.js';

/** A canvas of {@link listReadableCanvases}: its list entry and the role the who holds on it. */
export type ReadableCanvas = (CanvasListEntry & { role: Role }) | (CanvasListFailure & { role: Role | null });

/**
 * The canvases a who may read, as `canvas list` shows them (docs/mcp.md "The tools", docs/roles.md
 * "Roles": the MCP server's reads need viewer), each with the who's role. A canvas the who holds
 * no role on is left out; one `canvas list` could not read is kept with its refusal when the who
 * holds a role on it, or when its grants cannot be read either (then `role` is null).
 *
 * @param ws - the workspace
 * @param who - the identity reads are gated by
 * @param options - `unwrittenByRuns`, as for `canvas list`
 * @returns `{canvases}`, sorted by ledger id
 * @throws CanvasError `LOCK_TIMEOUT`, `GIT_FAILED`
 */
export async function listReadableCanvases(ws: Workspace, who: string, options: ListOptions = {}): Promise<{ canvases: ReadableCanvas[] }> {
  const list = await listCanvasEntries(ws, options);
  const reader = new RepoReader(ws);
  const out: ReadableCanvas[] = [];
  try {
    for (const c of list.canvases) {
      let role: Role | null;
      try {
        const access = await readAccess(ws, { ledger: c.ledger }, reader);
        role = roleOf(access.grants, access.creator, who);
      } catch (e) {
        if (!(e instanceof CanvasError) || !('error' in c)) throw e;
        out.push({ ...c, role: null });
        continue;
      }
      if (role !== null) out.push({ ...c, role });
    }
  } finally {
    reader.close();
  }
  return { canvases: out };
}
