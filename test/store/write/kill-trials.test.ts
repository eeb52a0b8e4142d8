import { describe, expect, it } from 'vitest';
import { KINDS, runKillTrials } from '../../helpers/kill-trials.js';
import { ROOT } from '../../helpers/workspace.js';

/**
 * A sample of the kill trials (docs/store.md, "Concurrency and crashes"): every kind of write,
 * killed at a random instant and at its ref update. The full run of 200 is
 * `npm run crash-trials` (bench/crash-trials.ts).
 */
describe('writers of every kind killed with SIGKILL', () => {
  it('recover with no manual step: verify green, the next write applied, working files equal to main (20 trials)', async () => {
    const report = await runKillTrials({ trials: 2 * KINDS.length, seed: 20, root: ROOT });
    expect(report.failures).toEqual([]);
    expect(report.trials).toBe(2 * KINDS.length);
    expect(Object.keys(report.byKind).sort()).toEqual([...KINDS].sort());
    expect(report.byTiming).toEqual({ random: KINDS.length, 'ref-update': KINDS.length });
  });
});
