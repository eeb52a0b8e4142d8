import { checkLedgerId } from '../../model/check-ledger-id.js';
import { readWatch, watchersByCanvas } from './watch-files.js';
import type { Workspace } from '../repo/workspace.js';

/** One watcher of a canvas: who, and since when (ISO 8601 UTC; empty when the watch file does not say). */
export interface CanvasWatcher {
  who: string;
  since: string;
}

/**
 * Who watches a canvas (docs/store.md, "Watches and the inbox"), sorted by `who`: read from the
 * watch files under `.git/canvas-watch/`, the readers' own state, never from the canvas history.
 * A canvas nobody watches, or one that does not exist, has none.
 *
 * @param ws - the workspace
 * @param ledger - the ledger id
 * @returns the watchers; empty when there is none
 * @throws CanvasError `BAD_LEDGER_ID`
 */
export async function listWatchers(ws: Workspace, ledger: string): Promise<CanvasWatcher[]> {
  const id = checkLedgerId(ledger);
  const whos = watchersByCanvas(ws).get(id) ?? [];
  return whos.map((who) => ({ who, since: readWatch(ws, who, id)?.since ?? '' }));
}
