import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { removeQuietly } from '../files/remove-quietly.js';
import type { CanvasFacts } from '../repo/canvas-facts.js';
import type { Replay } from './replay-state.js';
import type { VerifyRule, Violation } from './verify-rules.js';

// The facts caches of `.git/canvas-cache/` against the facts the replay folds from the history
// (docs/store.md, "Derived facts cache"): a cache is never an authority.

/** The facts caches in `.git/canvas-cache/` (not the `_`-named caches of the whole workspace; the other caches are in folders), by ledger. */
export function readCaches(gitDir: string): Map<string, { facts: Record<string, unknown>; met: boolean }> {
  const dir = join(gitDir, 'canvas-cache');
  const out = new Map<string, { facts: Record<string, unknown>; met: boolean }>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || name.startsWith('_')) continue;
    let facts: unknown;
    try {
      facts = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      facts = null;
    }
    // A tree cache of the layout before trees/ (`<ledger>.tree.json`, a blob and a tree): no
    // canvas's facts, removed quietly (docs/store.md, "Derived facts cache").
    if (name.endsWith('.tree.json') && facts !== null && typeof facts === 'object' && 'blob' in facts && 'canvas' in facts) {
      removeQuietly(join(dir, name));
      continue;
    }
    out.set(name.slice(0, -'.json'.length), { facts: facts !== null && typeof facts === 'object' ? (facts as Record<string, unknown>) : {}, met: false });
  }
  return out;
}

export function removeCache(gitDir: string, ledger: string): void {
  try {
    unlinkSync(join(gitDir, 'canvas-cache', `${ledger}.json`));
  } catch {
    // Already gone.
  }
}

/** Compare a canvas's facts cache with the facts folded from the history, at the cache's revision. */
export function checkCache(replay: Replay, ledger: string, facts: CanvasFacts, report: (rule: VerifyRule, message: string, extra?: Partial<Violation>) => void): void {
  const cache = replay.caches.get(ledger);
  if (!cache || cache.facts.revision !== facts.revision) return;
  cache.met = true;
  const want: Record<string, unknown> = JSON.parse(JSON.stringify(facts)) as Record<string, unknown>;
  // A cache written before it recorded the create commit is outdated, not wrong.
  if (!('created' in cache.facts)) delete want.created;
  // So is one written before it recorded the ending and the last run (the reader folds it again).
  if (!('ending' in cache.facts)) delete want.ending;
  if (!('lastRun' in cache.facts)) delete want.lastRun;
  if (isDeepStrictEqual(cache.facts, want)) return;
  const fields = Object.keys({ ...want, ...cache.facts }).filter((k) => !isDeepStrictEqual(cache.facts[k], want[k]));
  if (replay.writes()) removeCache(join(replay.reader.ws.repo, '.git'), ledger);
  report('cache', `the facts cache of ${ledger} disagrees with the history at this revision (${fields.join(', ')}); ${replay.writes() ? 'it was removed' : 'remove it'} (the next write rebuilds it)`, {
    path: `.git/canvas-cache/${ledger}.json`,
  });
}
