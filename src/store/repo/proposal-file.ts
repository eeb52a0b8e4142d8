import type { Anchor } from '../../model/edit-tree.js';
import { PROPOSAL_ID, proposalFile } from './layout.js';
import type { RepoReader } from './repo-reader.js';

/** The proposal file of a commenter's write (docs/roles.md "Proposals"). */
export interface ProposalFile {
  id: string;
  ledger: string;
  op: 'insert' | 'replace' | 'remove' | 'move';
  /** The node the edit names (null for an insert: its id is minted on approval). */
  node: string | null;
  /** For insert and move: where it goes. */
  anchor: Anchor | null;
  /** For insert and replace: the payload's canonical XML. */
  payload: string | null;
  /** The revision the proposer decided against. */
  base: string;
  require: string | null;
  why: string;
  proposedBy: string;
  /**
   * The canvas's revision when it was proposed (a sha; the propose commit's date is the time).
   * Files written before the field had this name call it `proposedAt` (docs/roles.md).
   */
  proposedRevision: string;
  status: 'open' | 'approved' | 'rejected';
  decidedBy?: string;
  decision?: string;
}

/** Serialize a proposal file: sorted keys, two-space indent, one final newline. */
export function proposalJson(p: ProposalFile): string {
  const sorted = Object.fromEntries(Object.entries(p).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * Read a canvas's proposal at a revision (docs/roles.md, "Proposals").
 *
 * @param reader - the repository's reader
 * @param revision - a commit (full sha)
 * @param ledger - the canvas's ledger id
 * @param id - the proposal's id, as the caller gave it
 * @returns the proposal, or null when `id` is no proposal id or the canvas has no such proposal there
 */
export async function readProposal(reader: RepoReader, revision: string, ledger: string, id: string): Promise<ProposalFile | null> {
  if (!PROPOSAL_ID.test(id)) return null;
  const bytes = await reader.file(revision, proposalFile(ledger, id));
  if (!bytes) return null;
  // A file written before the field was named for what it holds says `proposedAt` (a sha).
  const { proposedAt, ...file } = JSON.parse(bytes.toString('utf8')) as ProposalFile & { proposedAt?: string };
  return proposedAt !== undefined && file.proposedRevision === undefined ? { ...file, proposedRevision: proposedAt } : (file as ProposalFile);
}
