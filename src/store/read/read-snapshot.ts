import { indexNodes } from '../../model/index-nodes.js';
import type { Snapshot } from '../../model/snapshot.js';
import { editRecord } from '../repo/edit-record.js';
import { canvasFacts } from '../repo/canvas-facts.js';
import { nodeHistories } from './node-histories.js';
import { readCheckedCanvas } from './read-canvas-text.js';
import { RepoReader } from '../repo/repo-reader.js';
import { snapshotCrossings } from './snapshot-crossings.js';
import type { Workspace } from '../repo/workspace.js';

/** Options of {@link readSnapshot}. */
export interface SnapshotOptions {
  ledger: string;
  /** A commit on main: the canvas as it stood there. */
  at?: string | undefined;
  /** How many recent edits to include (default 10). */
  edits?: number | undefined;
}

/**
 * Read a snapshot of a canvas for the projections (docs/projections.md): the tree at one revision,
 * the frozen marker and the latest ending with their reasons, the last edit, the recent edits
 * with reasons, the crossings, and every node's history. One read; renderers never touch git.
 *
 * @param ws - the workspace
 * @param options - ledger, `at` (a commit on main), `edits` (how many recent edits, default 10)
 * @param reader - an open reader to reuse (the site build reads many canvases)
 * @returns the snapshot
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE`, and what the stored
 *   bytes break: `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
export async function readSnapshot(ws: Workspace, options: SnapshotOptions, reader?: RepoReader): Promise<Snapshot> {
  const r = reader ?? new RepoReader(ws);
  try {
    // One read path: the same revision, the same refusal of a missing canvas and the same check
    // of the stored bytes as `canvas read` (docs/store.md, "Reads").
    const { ledger, revision, canvas } = await readCheckedCanvas(ws, { ledger: options.ledger, at: options.at }, r);
    // The facts cache is saved for the canvas's head (never an authority; keyed by revision), so a
    // fresh clone's first build pays for each chain once, not on every build.
    const facts = await canvasFacts(r, ledger, revision, options.at === undefined);
    const recentEdits = [];
    for await (const c of r.chain(revision)) {
      if (recentEdits.length >= (options.edits ?? 10)) break;
      recentEdits.push(editRecord(c));
    }
    const all = await nodeHistories(r, ledger, revision, options.at === undefined);
    const history = Object.fromEntries([...indexNodes(canvas).keys()].map((id) => [id, all.get(id) ?? []]));
    const crossings = snapshotCrossings(canvas, facts);
    const dateOf = async (sha: string) => new Date(((await r.commit(sha))?.time ?? 0) * 1000).toISOString();
    const frozen: Snapshot['frozen'] = facts.frozen ? { ...facts.frozen, date: await dateOf(facts.frozen.commit) } : null;
    const e = facts.ending;
    const ending: Snapshot['ending'] = e
      ? { kind: e.op === 'freeze' ? 'frozen' : 'abandoned', commit: e.commit, reason: e.reason, author: e.author, date: await dateOf(e.commit), editedSince: e.editedSince }
      : null;
    return { ledger, revision, canvas, frozen, ending, lastEdit: recentEdits[0] ?? null, recentEdits, crossings, history };
  } finally {
    if (!reader) r.close();
  }
}
