import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { runGit } from '../git/git.js';
import { sweepPrivateFiles } from '../files/sweep-private-files.js';
import type { EditContext } from './edit-input.js';

/**
 * Clear what a crash inside the critical section can leave (docs/store.md "Concurrency and crashes"): stale ref lock
 * files (only ever cleared while holding the repository lock), and a canvas ref left one step
 * behind or ahead of main by a ref transaction that was cut short. Private files of
 * `.git/canvas-tmp/` that killed processes abandoned before renaming them are removed too
 * (docs/store.md, "Temporary files"): one `readdir` of a folder empty between writes.
 */
export async function recover(ctx: EditContext): Promise<void> {
  const gitDir = join(ctx.ws.repo, '.git');
  sweepPrivateFiles(gitDir);
  for (const p of ['refs/heads/main.lock', `refs/canvas/${ctx.ledger}.lock`, 'packed-refs.lock', 'HEAD.lock']) {
    const full = join(gitDir, p);
    if (existsSync(full)) unlinkSync(full);
  }
  if (!ctx.main) return;
  const head = await ctx.reader.commit(ctx.main);
  // A commit on main the store did not make: writing on top would build on changes nobody
  // checked (and the shared index it was made with may have dropped files). Refuse until it is
  // dealt with; `canvas verify` says what it changed.
  if (head && (!head.op || !head.ledger || head.parents.length > 1)) {
    const parent = head.parents[0];
    throw new CanvasError(
      'FOREIGN_COMMIT',
      `main's latest commit ${head.sha.slice(0, 12)} ("${head.subject.slice(0, 60)}") was not made by the tool; nothing is written on top of it`,
      `run \`canvas verify\` to see what it changed; to undo it, git -C ${ctx.ws.repo} update-ref refs/heads/main ${parent ?? '<parent>'} ${head.sha}`,
      { commit: head.sha },
    );
  }
  if (head?.ledger && head.ledger !== ctx.ledger) {
    const lock = join(gitDir, `refs/canvas/${head.ledger}.lock`);
    if (existsSync(lock)) unlinkSync(lock);
  }
  if (head?.ledger) {
    const ref = await ctx.reader.revision(head.ledger);
    const previous = head.trailers['Canvas-Previous'] ?? null;
    if (ref !== head.sha && (ref === previous || (ref === null && head.op === 'create'))) {
      await runGit(ctx.ws.repo, ['update-ref', `refs/canvas/${head.ledger}`, head.sha, ref ?? '0'.repeat(40)]);
      if (head.ledger === ctx.ledger) ctx.revision = head.sha;
    }
  }
  if (ctx.revision && ctx.revision !== ctx.main) {
    const rc = await ctx.reader.commit(ctx.revision);
    if (rc && rc.parents[0] === ctx.main) {
      const previous = rc.trailers['Canvas-Previous'] ?? null;
      await runGit(ctx.ws.repo, ['update-ref', `refs/canvas/${ctx.ledger}`, previous ?? '0'.repeat(40), ctx.revision]);
      ctx.revision = previous;
    }
  }
}
