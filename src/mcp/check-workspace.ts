import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import type { Workspace } from '../store/index.js';

/**
 * Check that a tool call names the workspace this server serves (docs/mcp.md "Workspace scoping",
 * docs/store.md "Workspace": workspace paths are compared as real paths). A relative path, a path that
 * does not exist, or any other directory is a mismatch. The refusal does not name the served
 * workspace: a caller told the wrong workspace must not simply switch to this one.
 *
 * @param served - the workspace the server was started on
 * @param given - the `workspace` argument of the call
 * @throws CanvasError `WORKSPACE_MISMATCH`
 */
export function checkWorkspace(served: Workspace, given: string): void {
  let real: string | null = null;
  if (isAbsolute(given)) {
    try {
      real = realpathSync(given);
    } catch {
      real = null;
    }
  }
  if (real === served.root) return;
  throw new CanvasError(
    'WORKSPACE_MISMATCH',
    real === null
      ? `workspace ${JSON.stringify(given)} is not an existing absolute path, so it is not the workspace this server serves; nothing was read or written`
      : `workspace ${real} is not the workspace this server serves; nothing was read or written`,
    'this server is scoped to another workspace: check which workspace your task gave you, and use the canvas server started for that one',
    { workspace: given },
  );
}
