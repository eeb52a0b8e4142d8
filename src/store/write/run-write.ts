import type { Outcome } from '../repo/outcome.js';
import type { Workspace } from '../repo/workspace.js';
import { checkWorkingFile } from './check-working-files.js';
import type { EditContext, PreparedWrite } from './edit-input.js';
import { rejectionOf } from './rejection-of.js';
import { replayKey } from './replay-key.js';
import { runLocked } from './run-locked.js';

/**
 * One kind of write (an edit of the document, a grant or revoke, a proposal's rejection), as the
 * write sequence runs it: what it carries, checked before the lock, and its own steps under it.
 *
 * @typeParam D - what {@link LockedWrite.decide} finds, handed to {@link LockedWrite.write}
 */
export interface LockedWrite<D = undefined> extends PreparedWrite {
  /**
   * The author's role, the first check under the lock (docs/roles.md, "Roles").
   *
   * @returns whether the write is applied or stored as a proposal
   * @throws CanvasError `NO_ROLE`, `ROLE_TOO_LOW`
   */
  role: (ctx: EditContext) => Promise<'apply' | 'propose'>;
  /**
   * What must still hold for this write, checked after a replayed idempotency key (so a retry
   * returns its first outcome) and before the working files: an approval's proposal still open.
   */
  decide?: ((ctx: EditContext) => Promise<D>) | undefined;
  /** The write's own work, last: its checks, then its commit (`commitDocument`). */
  write: (ctx: EditContext, mode: 'apply' | 'propose', decided: D | undefined) => Promise<Outcome>;
}

/**
 * Run a write through the store's one write sequence (docs/store.md, "Writes"): what the write
 * carries is checked before anything is touched (`prepare`); then, holding the repository lock
 * with the canvas's state loaded and crash leftovers repaired ({@link runLocked}), the author's
 * role, a replayed idempotency key (docs/roles.md, "Idempotency"), the write's own conditions, the
 * working files (docs/store.md, "Concurrency and crashes"), and the write itself, whose commit
 * runs the one-node guard, moves the refs and writes the working files. Every kind of write runs
 * here: the node edits, create, the endings, proposals and their approval (`applyEdit`), grants
 * and revokes, and rejections.
 *
 * @param ws - the workspace
 * @param prepare - checks what the write carries and describes it; what it throws is the outcome
 * @returns exactly one outcome: applied, proposed, conflict or rejected
 * @throws CanvasError `NO_ROLE` (exit 5) and internal errors (`GIT_FAILED`, `GIT_HELPER_FAILED`,
 *   `LOCK_TIMEOUT`, `REF_MOVED`); every other refusal is a `rejected` outcome
 */
export async function runWrite<D = undefined>(ws: Workspace, prepare: () => LockedWrite<D> | Promise<LockedWrite<D>>): Promise<Outcome> {
  try {
    const w = await prepare();
    return await runLocked(ws, w, async (ctx) => {
      const mode = await w.role(ctx);
      const replay = replayKey(ctx);
      if (replay) return replay;
      const decided = w.decide ? await w.decide(ctx) : undefined;
      await checkWorkingFile(ctx);
      return w.write(ctx, mode, decided);
    });
  } catch (e) {
    return rejectionOf(e);
  }
}
