import { type CanvasRef, runGit, type Workspace } from '../store/index.js';

/**
 * The canvases in the order their revisions were committed, newest first (docs/site.md, "How
 * the build reads"): one `git for-each-ref --sort=-committerdate` (ties by ledger). git finds a
 * document at a revision through that revision's root tree, one entry per canvas, which a pack
 * stores as a chain of deltas; asked in history order, each tree is made from the one git built
 * just before, held in its cache of delta bases, instead of from far down its chain. The order
 * changes what git reads, never what is built: the results are keyed by ledger.
 *
 * @param ws - the workspace
 * @param refs - the canvases to order
 * @returns the same canvases, newest revision first; one git does not list comes last, by ledger
 * @throws CanvasError `GIT_FAILED`
 */
export async function inHistoryOrder(ws: Workspace, refs: readonly CanvasRef[]): Promise<CanvasRef[]> {
  if (refs.length < 2) return [...refs];
  const { stdout } = await runGit(ws.repo, ['for-each-ref', '--sort=-committerdate', '--format=%(refname:lstrip=2)', 'refs/canvas/']);
  const place = new Map(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((ledger, i) => [ledger, i]),
  );
  const at = (c: CanvasRef) => place.get(c.ledger) ?? Number.MAX_SAFE_INTEGER;
  return [...refs].sort((a, b) => at(a) - at(b) || (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
}
