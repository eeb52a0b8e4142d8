import { describe, expect, it } from 'vitest';
import { runRemoteKillTrials, TIMINGS } from '../../../bench/lib/remote-kill-trials.js';
import { ROOT } from '../../helpers/workspace.js';

/**
 * A sample of the kill trials around the push (docs/remote.md, "Crashes"): a writer with a shared
 * remote (git daemon on 127.0.0.1) killed at random, while the remote receives its pack, while
 * the remote moves its refs, and while it moves its own refs after the push (where the kill
 * leaves git's refs/heads/main.lock behind). The full run of 60 is bench/remote-kill-trials.ts.
 */
describe('a writer with a shared remote killed with SIGKILL around its push', () => {
  it('one sync later this machine and the remote agree, the edit there once or not at all (one trial at each instant)', async () => {
    const report = await runRemoteKillTrials({ trials: TIMINGS.length, seed: 7, root: ROOT });
    expect(report.failures).toEqual([]);
    expect(report.byTiming).toEqual({ random: 1, receiving: 1, 'remote-ref': 1, 'local-ref': 1 });
  });
});
