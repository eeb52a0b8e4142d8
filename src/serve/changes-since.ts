import { CanvasError } from '../model/canvas-error.js';
import { diffCanvases } from '../model/diff-canvases.js';
import type { HistoryEntry } from '../model/snapshot.js';
import { type DiffEntry, historyEntry, readCanvas, RepoReader, type Workspace } from '../store/index.js';

/** What changed in a canvas since a revision the page showed. */
export interface ChangesSince {
  ledger: string;
  base: string;
  revision: string;
  /** Every commit after base, oldest first (grants, proposals and freezes included). */
  commits: HistoryEntry[];
  /** The node-level diff, each node with the commits that changed it (docs/diff.md). */
  diff: DiffEntry[];
}

/**
 * What changed in a canvas since `base` (docs/serve.md, "Live"): the commits after it with their
 * authors and reasons, and the node-level diff with the commits of each node, the shape a write's
 * `diff` has. A walk of the canvas's chain from its revision back to base.
 *
 * @param ws - the workspace
 * @param ledger - the canvas
 * @param base - a full sha of a revision of this canvas
 * @returns the changes; empty when base is the revision
 * @throws CanvasError `UNKNOWN_BASE` (base is not on this canvas's chain), `CANVAS_NOT_FOUND`
 */
export async function changesSince(ws: Workspace, ledger: string, base: string): Promise<ChangesSince> {
  const now = await readCanvas(ws, { ledger });
  const reader = new RepoReader(ws);
  const commits: HistoryEntry[] = [];
  try {
    let reached = false;
    for await (const c of reader.chain(now.revision)) {
      if (c.sha === base) {
        reached = true;
        break;
      }
      commits.push(historyEntry(c));
    }
    if (!reached) {
      throw new CanvasError('UNKNOWN_BASE', `${base} is not a revision of canvas ${ledger}`, 'reload the page', { base, ledger });
    }
  } finally {
    reader.close();
  }
  commits.reverse();
  if (commits.length === 0) return { ledger, base, revision: now.revision, commits, diff: [] };
  const before = await readCanvas(ws, { ledger, at: base });
  const diff: DiffEntry[] = diffCanvases(before.canvas, now.canvas).map((ch) => ({ ...ch, commits: commits.filter((c) => c.node === ch.node) }));
  return { ledger, base, revision: now.revision, commits, diff };
}
