import { CanvasError } from '../../model/canvas-error.js';
import type { CanvasCommit } from '../repo/canvas-commit.js';
import type { RepoReader } from '../repo/repo-reader.js';

/**
 * Refuse a base that is not a revision of this canvas (docs/store.md, "Staleness"): a base must
 * be a commit on the canvas's own chain, the commits walked from `refs/canvas/<ledger>` through
 * `Canvas-Previous`. A revision of another canvas is on main too, so the staleness check would
 * see none of this canvas's edits after it and let the write pass over them.
 *
 * The check costs nothing on the normal path: the chain after the base is made of the commits of
 * this canvas that the staleness check already listed (`since`, main's commits after the base),
 * so the walk from the revision follows `Canvas-Previous` through them and meets the base. A base
 * whose own `Canvas-Ledger` names another canvas is refused at once. Only a history whose chain
 * leaves that window without meeting the base (which `canvas verify` reports) walks the rest of
 * the chain itself, the authority, before refusing.
 *
 * @param reader - an open reader of the repository
 * @param ledger - the ledger id
 * @param revision - the canvas's current revision (full sha)
 * @param base - the resolved base (full sha, a commit on main)
 * @param since - this canvas's commits on main after the base, oldest first
 * @param flag - how to name the base in the message (`--base`, `--require`)
 * @throws CanvasError `FOREIGN_BASE` (exit 2), with `data` `{ base, ledger, revision, baseLedger }`
 */
export async function checkBaseOnChain(reader: RepoReader, ledger: string, revision: string, base: string, since: readonly CanvasCommit[], flag: string): Promise<void> {
  if (base === revision) return;
  const baseCommit = await reader.commit(base);
  const baseLedger = baseCommit?.ledger ?? null;
  if (baseLedger === ledger) {
    const window = new Map(since.map((c) => [c.sha, c]));
    let sha: string | undefined = revision;
    while (sha !== undefined && sha !== base && window.has(sha)) sha = window.get(sha)!.trailers['Canvas-Previous'];
    if (sha === base) return;
    if (sha !== undefined) {
      for await (const c of reader.chain(sha)) if (c.sha === base) return;
    }
  }
  const short = `${flag} ${base.slice(0, 12)}`;
  const message =
    baseLedger === ledger
      ? `${short} names canvas ${ledger} but is not on its chain of revisions (its revision is ${revision})`
      : `${short} is ${baseLedger === null ? 'a commit of no canvas' : `a revision of canvas ${baseLedger}`}, not of canvas ${ledger} (whose revision is ${revision})`;
  throw new CanvasError('FOREIGN_BASE', message, `read canvas ${ledger} (its revision is ${revision}): run \`canvas read ${ledger}\` and decide against what it shows`, { base, ledger, revision, baseLedger });
}
