import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { markBaseRule } from '../repo/base-rule-marker.js';
import { canvasExists } from '../repo/canvas-exists.js';
import { canvasFacts } from '../repo/canvas-facts.js';
import { canvasNotFoundFor } from '../repo/canvas-not-found.js';
import { cachedCanvasTree } from '../repo/canvas-tree-cache.js';
import { ensureRepo } from '../repo/ensure-repo.js';
import { idleMs } from '../git/git-handles.js';
import { RefUpdater } from '../git/ref-updater.js';
import { keepReflogs } from '../repo/keep-reflogs.js';
import type { Outcome } from '../repo/outcome.js';
import { withRepoLock } from '../repo/repo-lock.js';
import { type RemoteSession, StalePush } from '../remote/push-write.js';
import { backOff, busy, pushRounds, reconcile } from '../remote/reconcile.js';
import { remoteUrl } from '../remote/shared-remote.js';
import { RepoReader } from '../repo/repo-reader.js';
import { recordWatch } from '../watch/watch-canvas.js';
import type { Workspace } from '../repo/workspace.js';
import type { EditContext, PreparedWrite } from './edit-input.js';
import { recover } from './recover.js';
import { repoExists } from '../files/permission-denied.js';
import { reachStep } from '../repo/write-steps.js';
import { canvasFile } from '../repo/layout.js';

/**
 * Run a write under the repository lock with its context loaded: the repository exists (made on
 * create), crash leftovers are repaired, the canvas exists (or, for create, does not), and its
 * facts and current tree are read. A write applied or proposed then makes its author's `who` a
 * watcher of the canvas (docs/store.md, "Watches and the inbox").
 *
 * @throws CanvasError `CANVAS_NOT_FOUND`, `CANVAS_EXISTS`, `LOCK_TIMEOUT`, `GIT_FAILED`,
 *   `GIT_HELPER_FAILED`, `USAGE` (a bad `CANVAS_GIT_IDLE_MS`)
 */
export async function runLocked(ws: Workspace, w: PreparedWrite, fn: (ctx: EditContext, current: Buffer | null) => Promise<Outcome>): Promise<Outcome> {
  // A bad CANVAS_GIT_IDLE_MS is refused before anything, even the repository, is made.
  idleMs();
  const creates = w.operation.touches === 'document' && w.operation.edit.op === 'create';
  if (creates) await ensureRepo(ws);
  else if (!repoExists(ws.repo)) throw await canvasNotFoundFor(ws.root, w.ledger, commandOf(w), null);
  let url: string | null = null;
  let outcome: Outcome;
  for (let round = 1; ; round++) {
    // process.uptime(), not performance.now(): Node loads perf_hooks (9 modules, about 1.2 ms of
    // a write's CPU) the first time `performance` is touched.
    const started = process.uptime() * 1000;
    try {
      outcome = await withRepoLock(join(ws.repo, '.git'), async () => {
        const locked = reachStep({ step: 'locked', ledger: w.ledger });
        if (locked) await locked;
        // A repository made before the store kept reflogs, or a clone, starts keeping them now.
        await keepReflogs(ws.repo);
        await markBaseRule(ws.repo);
        url = await remoteUrl(ws.repo);
        // With a shared remote the write is checked against the remote's state, and a push someone
        // else beat is checked again, in a round of its own, on the state they left
        // (docs/remote.md, "Writes").
        const remote = url === null ? null : { url, refs: (await reconcile(ws, url)).remote };
        return lockedOnce(ws, w, creates, remote, fn);
      });
      break;
    } catch (e) {
      if (!(e instanceof StalePush)) throw e;
      if (round >= pushRounds()) throw busy(url ?? '');
      // The wait before the next round is out of the lock: this machine's other writers go first.
      await backOff(round, started);
    }
  }
  // Writing to a canvas makes the writer a watcher (docs/store.md, "Watches and the inbox"):
  // after the lock is let go, and never failing the write that already happened.
  if (outcome.outcome === 'applied' || outcome.outcome === 'proposed') recordWatch(ws, w.author.who, w.ledger, outcome.revision);
  const done = reachStep({ step: 'done', ledger: w.ledger, ...('revision' in outcome && outcome.revision ? { revision: outcome.revision } : {}) });
  if (done) await done;
  return outcome;
}

/** One round of a locked write: its context loaded from the refs as they stand, then `fn`. */
async function lockedOnce(ws: Workspace, w: PreparedWrite, creates: boolean, remote: RemoteSession | null, fn: (ctx: EditContext, current: Buffer | null) => Promise<Outcome>): Promise<Outcome> {
  const reader = new RepoReader(ws, { locked: true });
  // The write holds its git update-ref for as long as it holds the lock (docs/store.md,
  // "Long-lived git processes"): no idle close can come between taking it and using it.
  let releaseRefs = () => {};
  try {
    // Both refs are asked for at once; git update-ref starts (unless running) while they are read.
    const mainRead = reader.main();
    const revisionRead = reader.revision(w.ledger);
    revisionRead.catch(() => {});
    const refs = RefUpdater.shared(ws.repo);
    releaseRefs = refs.hold();
    const ctx: EditContext = {
      ws,
      reader,
      ledger: w.ledger,
      author: w.author,
      why: w.why,
      main: await mainRead,
      revision: await revisionRead,
      facts: null,
      canvas: null,
      request: w.request,
      base: null,
      common: w.common,
      refs,
      remote,
    };
    await recover(ctx);
    if (creates) {
      if (ctx.revision) {
        throw canvasExists(w.ledger, ctx.revision);
      }
    } else if (!ctx.revision) {
      throw await canvasNotFoundFor(ws.root, w.ledger, commandOf(w), reader);
    }
    const current = ctx.revision ? await reader.file(ctx.revision, canvasFile(w.ledger)) : null;
    if (ctx.revision) {
      ctx.facts = await canvasFacts(reader, w.ledger, ctx.revision, true);
      if (!current) throw new CanvasError('INTERNAL', `canvas ${w.ledger} has no ${canvasFile(w.ledger)} at ${ctx.revision}`, 'run `canvas verify`');
      ctx.canvas = cachedCanvasTree(join(ws.repo, '.git'), w.ledger, current);
    }
    return await fn(ctx, current);
  } finally {
    releaseRefs();
    reader.close();
  }
}

/** The command a write is, and its argument besides the ledger id (a node, a proposal), for a missing canvas's refusal. */
function commandOf(w: PreparedWrite): { name: string; other?: string | undefined } {
  const op = w.operation;
  return op.touches === 'document' ? { name: op.edit.op, other: 'node' in op.edit ? op.edit.node : undefined } : { name: op.op, other: op.other };
}
