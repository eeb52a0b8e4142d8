import type { Anchor } from '../../model/edit-tree.js';

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
