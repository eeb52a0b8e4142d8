import { checkLedgerId } from '../../model/check-ledger-id.js';
import { parseTree } from '../git/write-tree.js';
import { parseRepoPath, proposalsFolder } from '../repo/layout.js';
import { type ProposalFile, readProposal } from '../repo/proposal-file.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/**
 * List a canvas's proposals (docs/roles.md "Proposals"), open ones first, then by id.
 *
 * @param open - optional: a reader the caller holds open (it stays open)
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`
 */
export async function listProposals(ws: Workspace, options: { ledger: string }, open?: RepoReader): Promise<ProposalFile[]> {
  const ledger = checkLedgerId(options.ledger);
  const reader = open ?? new RepoReader(ws);
  try {
    const revision = await reader.revision(ledger);
    if (!revision) throw canvasNotFound(ws.root, ledger);
    const tree = await reader.object(`${revision}:${proposalsFolder(ledger)}`);
    const out: ProposalFile[] = [];
    for (const e of tree ? parseTree(tree) : []) {
      const id = parseRepoPath(`${proposalsFolder(ledger)}/${e.name}`)?.proposal;
      const p = id === undefined ? null : await readProposal(reader, revision, ledger, id);
      if (p) out.push(p);
    }
    return out.sort((a, b) => ((a.status === 'open') !== (b.status === 'open') ? (a.status === 'open' ? -1 : 1) : a.id < b.id ? -1 : 1));
  } finally {
    if (!open) reader.close();
  }
}
