import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { parseAuthor } from '../../model/parse-author.js';
import { RepoReader } from '../repo/repo-reader.js';
import { withWatcherLock } from './watch-canvas.js';
import { readWatch, replaceWatch } from './watch-files.js';
import type { Workspace } from '../repo/workspace.js';

/** What {@link ackInbox} takes: whose inbox, and the revision shown for each canvas (`Inbox.canvases`). */
export interface AckRequest {
  author: string;
  /** Ledger id to the revision the inbox showed it at (a full sha, as `readInbox` returned it). */
  cursors: Readonly<Record<string, string>>;
}

/** What {@link ackInbox} returns: the cursors it moved. */
export interface AckResult {
  who: string;
  acked: Array<{ ledger: string; cursor: string }>;
}

/** True when `later` is `earlier` or comes after it on its canvas's chain. */
async function reaches(reader: RepoReader, later: string, earlier: string): Promise<boolean> {
  for await (const c of reader.chain(later)) if (c.sha === earlier) return true;
  return false;
}

/**
 * Acknowledge what an inbox showed (docs/store.md, "Watches and the inbox"): each canvas's
 * cursor moves to the revision given for it, exactly what was shown and not what arrived since,
 * and only forward: a cursor already at or past that revision (another reader of the same `who`
 * acknowledged more) stays, and a canvas no longer watched is left alone. Each cursor is
 * replaced atomically under the watcher's lock, so two readers of one `who` never move a cursor
 * back, and a crash leaves every cursor at its old value or its new one.
 *
 * @param ws - the workspace
 * @param req - the author and the revisions shown
 * @returns the cursors moved
 * @throws CanvasError `BAD_AUTHOR`, `BAD_LEDGER_ID`, `USAGE` (a revision that is not a commit of
 *   that canvas: nothing is moved), `LOCK_TIMEOUT`
 */
export async function ackInbox(ws: Workspace, req: AckRequest): Promise<AckResult> {
  const { who } = parseAuthor(req.author);
  const wanted = Object.entries(req.cursors).map(([ledger, sha]) => [checkLedgerId(ledger), sha] as const);
  const reader = new RepoReader(ws);
  try {
    for (const [ledger, sha] of wanted) {
      const c = /^[0-9a-f]{40}$/.test(sha) ? await reader.commit(sha) : null;
      if (c?.ledger !== ledger) {
        throw new CanvasError(
          'USAGE',
          `${JSON.stringify(sha)} is not a commit of canvas ${ledger}: an inbox is acknowledged with the revisions it showed`,
          "pass each canvas's revision as the inbox returned it (canvases[].revision)",
          {
            ledger,
            cursor: sha,
          },
        );
      }
    }
    return await withWatcherLock(ws, who, async () => {
      const acked: AckResult['acked'] = [];
      for (const [ledger, sha] of wanted) {
        const watch = readWatch(ws, who, ledger);
        if (!watch || watch.cursor === sha) continue;
        // A cursor that is a commit of this canvas the shown revision does not reach is past it.
        // One that is not (unknown, or lost) is where the inbox showed the whole history from.
        const known = watch.cursor !== null && (await reader.commit(watch.cursor))?.ledger === ledger;
        if (known && !(await reaches(reader, sha, watch.cursor!))) continue;
        replaceWatch(ws, { ...watch, cursor: sha });
        acked.push({ ledger, cursor: sha });
      }
      return { who, acked };
    });
  } finally {
    reader.close();
  }
}
