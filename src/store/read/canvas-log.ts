import { checkLedgerId } from '../../model/check-ledger-id.js';
import { editRecord } from '../repo/edit-record.js';
import type { EditRecord } from '../repo/outcome.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/**
 * A canvas's commits, newest first (docs/cli.md, `canvas log`): every op, with its node,
 * author and reason.
 *
 * @param options - ledger, and `limit` (how many, default all)
 * @returns the edit records
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`
 */
export async function canvasLog(ws: Workspace, options: { ledger: string; limit?: number | undefined }, reader?: RepoReader): Promise<EditRecord[]> {
  const ledger = checkLedgerId(options.ledger);
  const r = reader ?? new RepoReader(ws);
  try {
    const revision = await r.revision(ledger);
    if (!revision) {
      throw canvasNotFound(ws.root, ledger);
    }
    const out: EditRecord[] = [];
    for await (const c of r.chain(revision)) {
      if (options.limit !== undefined && out.length >= options.limit) break;
      out.push(editRecord(c));
    }
    return out;
  } finally {
    if (!reader) r.close();
  }
}
