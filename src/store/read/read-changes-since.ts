import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import type { SnapshotEdit } from '../../model/snapshot.js';
import type { Canvas } from '../../model/types.js';
import { editRecord } from '../repo/edit-record.js';
import { readCheckedCanvas } from './read-canvas-text.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';

/** What changed in a canvas since a revision a reader saw (docs/store.md, "Sessions"). */
export type CanvasChanges =
  /** Nothing: the canvas is still at the revision seen. */
  | { ledger: string; revision: string; changed: false }
  /**
   * The canvas moved on: its revision and tree now, and every commit of its chain after the
   * revision seen, newest first.
   */
  | { ledger: string; revision: string; changed: true; canvas: Canvas; edits: SnapshotEdit[] }
  /** The revision seen is not on the canvas's chain (or too far back): the reader needs the whole canvas again. */
  | { ledger: string; revision: string; changed: true; lost: true };

/** Options of {@link readChangesSince}. */
export interface ChangesOptions {
  ledger: string;
  /** The revision the reader last saw (a full sha). */
  since: string;
  /** Walk back at most this many commits (default 100); a revision seen further back counts as lost. */
  limit?: number | undefined;
}

/**
 * Read what changed in a canvas after a revision a reader saw (docs/store.md, "Sessions"): the
 * cheapest answer first, since a harness asks before every message a person sends. When the
 * canvas's revision is the one seen, only its ref is read (one `git cat-file --batch` request).
 * Otherwise its chain is walked back to the revision seen, through the same open batch, and the
 * tree at the revision is read as `canvas read` reads it (the store's tree cache, or a checked parse).
 *
 * @param ws - the workspace
 * @param options - `ledger`, `since`, `limit`
 * @param reader - an open reader to reuse
 * @returns unchanged; or the revision, the tree and the commits after `since`, newest first; or lost
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, and what the stored bytes break
 *   (`XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`)
 */
export async function readChangesSince(ws: Workspace, options: ChangesOptions, reader?: RepoReader): Promise<CanvasChanges> {
  const ledger = checkLedgerId(options.ledger);
  const r = reader ?? new RepoReader(ws);
  try {
    return await changesOf(ws, r, ledger, options);
  } finally {
    if (!reader) r.close();
  }
}

/** {@link readChangesSince} through an open reader. */
async function changesOf(ws: Workspace, r: RepoReader, ledger: string, options: ChangesOptions): Promise<CanvasChanges> {
  const revision = await r.revision(ledger);
  if (revision === options.since) return { ledger, revision, changed: false };
  if (revision === null) {
    throw new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${ledger} in ${ws.root}`, `create it: canvas create ${ledger} --why "..."`, { ledger });
  }
  const limit = options.limit ?? 100;
  const edits: SnapshotEdit[] = [];
  let met = false;
  for await (const c of r.chain(revision)) {
    if (c.sha === options.since) {
      met = true;
      break;
    }
    if (edits.length >= limit) break;
    edits.push(editRecord(c));
  }
  if (!met) return { ledger, revision, changed: true, lost: true };
  const read = await readCheckedCanvas(ws, { ledger }, r);
  // A write landed between the two reads of the ref: walk again from the newer revision.
  if (read.revision !== revision) return changesOf(ws, r, ledger, options);
  return { ledger, revision, changed: true, canvas: read.canvas, edits };
}
