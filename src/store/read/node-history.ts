import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { NODE_ID } from '../../model/patterns.js';
import type { HistoryEntry } from '../../model/snapshot.js';
import { historyEntry } from '../repo/history-entry.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/**
 * A node's history (docs/identity.md, docs/cli.md): every commit of the canvas whose
 * `Canvas-Node` trailer equals the id (equality, never a substring), oldest first, spanning
 * moves. A walk of the canvas's own chain, never a scan of the repository.
 *
 * @returns the commits naming the node
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `NODE_NOT_FOUND` (no commit names it)
 */
export async function nodeHistory(ws: Workspace, options: { ledger: string; node: string }): Promise<HistoryEntry[]> {
  const ledger = checkLedgerId(options.ledger);
  if (!NODE_ID.test(options.node ?? '')) {
    throw new CanvasError('NODE_NOT_FOUND', `"${options.node ?? ''}" is not a node id (^[a-z][a-z0-9]{1,11}$)`, `run \`canvas read ${ledger}\` for the node ids`, {
      node: options.node,
    });
  }
  const reader = new RepoReader(ws);
  try {
    const revision = await reader.revision(ledger);
    if (!revision) {
      throw canvasNotFound(ws.root, ledger);
    }
    const out: HistoryEntry[] = [];
    for await (const c of reader.chain(revision)) {
      if (c.trailers['Canvas-Node'] === options.node) out.push(historyEntry(c));
    }
    if (out.length === 0) {
      throw new CanvasError('NODE_NOT_FOUND', `no commit of canvas ${ledger} names node ${options.node}`, `run \`canvas read ${ledger}\` for the current ids, or \`canvas log ${ledger}\` for every edit`, {
        ledger,
        node: options.node,
      });
    }
    return out.reverse();
  } finally {
    reader.close();
  }
}
