import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';

/** A resolved workspace (docs/store.md "Workspace"). All paths are real paths. */
export interface Workspace {
  /** The workspace directory. */
  root: string;
  /** `state/canvas`: the git repository holding every canvas. */
  repo: string;
  /** `state/ledger`: the orchestrator's ledger rows, read only. */
  ledgerDir: string;
}

/** Where a workspace comes from: a flag, else `CANVAS_WORKSPACE`, else `OPENCLAW_WORKSPACE`. */
export interface WorkspaceOptions {
  workspace?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

/**
 * Resolve the workspace: `--workspace DIR`, else `$CANVAS_WORKSPACE`, else `$OPENCLAW_WORKSPACE`
 * (docs/store.md "Workspace"). The directory must exist and be a directory (a file is `NO_WORKSPACE`, never
 * an internal error later); it is compared as a real path (docs/errors.md, `NO_WORKSPACE`).
 *
 * @param options - the flag's value and the environment (default `process.env`)
 * @returns the workspace with its repository and ledger paths
 * @throws CanvasError `NO_WORKSPACE` naming all three sources, or the missing directory, or the
 *   path that is not a directory
 */
export function resolveWorkspace(options: WorkspaceOptions = {}): Workspace {
  const env = options.env ?? process.env;
  const given = options.workspace || env.CANVAS_WORKSPACE || env.OPENCLAW_WORKSPACE;
  if (!given) {
    throw new CanvasError('NO_WORKSPACE', 'no workspace: none of --workspace, $CANVAS_WORKSPACE and $OPENCLAW_WORKSPACE is set', 'pass --workspace DIR, or export CANVAS_WORKSPACE=DIR');
  }
  const abs = resolve(given);
  if (!existsSync(abs)) {
    throw new CanvasError('NO_WORKSPACE', `the workspace ${abs} does not exist`, `create it first: mkdir -p ${abs}`, { workspace: abs });
  }
  if (!statSync(abs).isDirectory()) {
    throw new CanvasError('NO_WORKSPACE', `the workspace ${abs} is not a directory`, 'pass the workspace directory (the one holding state/), not a file in it: --workspace DIR', { workspace: abs });
  }
  const root = realpathSync(abs);
  return { root, repo: join(root, 'state', 'canvas'), ledgerDir: join(root, 'state', 'ledger') };
}
