import type { HistoryEntry } from '../../model/snapshot.js';
import type { CanvasCommit } from './canvas-commit.js';
import { editRecord } from './edit-record.js';

/**
 * Turn a commit that names a node into its history entry (docs/projections.md, "Why is this
 * here?"): the edit record, plus the proposer and their reason for an approved proposal. Written
 * once, so `canvas history` and every page's reasons list the same entries.
 *
 * @param c - a parsed store commit with a `Canvas-Node` trailer
 * @returns the entry
 */
export function historyEntry(c: CanvasCommit): HistoryEntry {
  const entry: HistoryEntry = editRecord(c);
  const by = c.trailers['Canvas-Proposed-By'];
  if (by !== undefined) entry.proposedBy = by;
  const why = c.trailers['Canvas-Proposed-Why'];
  if (why !== undefined) entry.proposedWhy = why;
  return entry;
}
