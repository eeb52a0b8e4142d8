import { join } from 'node:path';

/**
 * `.git/canvas-cache/trees/<ledger>.json` (docs/store.md, "Derived facts cache"): the tree of the
 * document the store last wrote for a canvas, keyed by its blob sha. A folder of its own, because
 * a ledger id may hold a dot, so `<ledger>.tree.json` beside the facts caches would be the facts
 * cache of the canvas named `<ledger>.tree`. A module of its own, so that a read can look at the
 * file without loading what the cache's writer needs (the serializer, node:crypto).
 *
 * @param gitDir - the repository's `.git` directory
 * @param ledger - the ledger id
 */
export function treeCachePath(gitDir: string, ledger: string): string {
  return join(gitDir, 'canvas-cache', 'trees', `${ledger}.json`);
}
