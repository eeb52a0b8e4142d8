// The generated workspaces' cache (bench/lib/generate-workspace.ts, bench/lib/prune-cache.ts):
// its key changes with every change of the generator's sources, so an entry no run takes any
// more is removed after six hours unused instead of staying in the temporary directory for good.
import { existsSync, mkdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWorkspace } from '../bench/lib/generate-workspace.js';
import { tempDir } from './helpers/temp-dir.js';
import { ROOT } from './helpers/workspace.js';

const HOUR = 3600_000;
const SPEC = { canvases: 6, commits: 40, minNodes: 3, maxNodes: 5, bigNodes: 0, seed: 7 };

/** An entry of the cache last used `hours` ago. */
function entry(cache: string, name: string, hours: number): string {
  const dir = join(cache, name);
  mkdirSync(join(dir, 'ws'), { recursive: true });
  const then = new Date(Date.now() - hours * HOUR);
  utimesSync(dir, then, then);
  return dir;
}

describe('the generated workspaces cache', () => {
  it('removes the entries unused for six hours, an abandoned generation among them, and keeps the others', async () => {
    const cache = tempDir('canvas-gen-cache-');
    const stale = entry(cache, '00aa11bb22cc33dd', 7);
    const cut = entry(cache, '44ee55ff66aa77bb.tmp-4242', 30);
    const recent = entry(cache, '8899aabbccddeeff', 5);
    const made = await generateWorkspace(SPEC, ROOT, undefined, cache);
    expect(made.cached).toBe(false);
    expect([existsSync(stale), existsSync(cut), existsSync(recent), existsSync(made.dir)]).toEqual([false, false, true, true]);
  });

  it('a hit marks its entry used, so it is kept as long as runs take it', async () => {
    const cache = tempDir('canvas-gen-cache-');
    const first = await generateWorkspace(SPEC, ROOT, undefined, cache);
    const then = new Date(Date.now() - 5 * HOUR);
    utimesSync(first.dir, then, then);
    const again = await generateWorkspace(SPEC, ROOT, undefined, cache);
    expect(again.cached).toBe(true);
    expect(again.dir).toBe(first.dir);
    expect(Date.now() - statSync(again.dir).mtimeMs).toBeLessThan(HOUR);
  });
});
