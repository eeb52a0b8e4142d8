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

/**
 * The version of the write path's checks that a tree cache records its bytes passed (docs/store.md,
 * "Reads"): raise it whenever a check of the document tightens (a new refusal of the parser or
 * the schema), so that bytes cached under weaker checks are parsed and checked again rather than
 * trusted. A cache without it, or with another one, is not trusted; the next write of the canvas
 * saves it anew. 2: the checks of 2026-12-01 (nesting depth, characters XML cannot hold).
 */
export const TREE_CACHE_CHECKS = 2;
