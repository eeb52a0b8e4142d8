// An in-memory snapshot for unit tests of the renderers (no git): a canvas document with ids.
import { parseCanvas } from '../../src/model/parse-canvas.js';
import type { Snapshot } from '../../src/model/snapshot.js';

/** A fixed revision for in-memory snapshots. */
export const REV = '0123456789abcdef0123456789abcdef01234567';

/**
 * Build a snapshot from canvas XML (nodes with ids and versions).
 *
 * @param nodes - the XML inside `<canvas>`
 * @param extra - fields to override (frozen, ending, lastEdit, recentEdits, crossings)
 */
export function snapshotOf(nodes: string, extra: Partial<Snapshot> = {}): Snapshot {
  const canvas = parseCanvas(`<canvas ledger="unit" schema="2">${nodes}</canvas>`);
  return { ledger: 'unit', revision: REV, canvas, frozen: null, ending: null, lastEdit: null, recentEdits: [], crossings: [], history: {}, ...extra };
}
