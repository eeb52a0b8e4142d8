import type { CanvasCommit } from './canvas-commit.js';
import type { EditRecord } from './outcome.js';

/**
 * Turn a commit into the record edits and diffs report (its own module, so that `log` and
 * `history` load no write path).
 *
 * @param c - a parsed store commit
 * @returns sha, op, node, author, reason and the author date as ISO 8601 UTC
 */
export function editRecord(c: CanvasCommit): EditRecord {
  return {
    commit: c.sha,
    op: c.op ?? '',
    node: c.node ?? null,
    author: c.trailers['Canvas-Author'] ?? c.authorName,
    reason: c.reason,
    date: new Date(c.time * 1000).toISOString(),
  };
}
