import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../../src/store/remote/reconcile.js';

// The wait between beaten rounds of a push (docs/remote.md, "Writes"): a random share of the
// round's own window, doubling each round, capped, so writers beaten by one push do not fetch
// and race again in lockstep.

describe('the wait after a beaten push', () => {
  it('is the random share of the round window, doubled for each round already beaten', () => {
    const half = () => 0.5;
    expect(backoffMs(1, 300, half)).toBe(150);
    expect(backoffMs(2, 300, half)).toBe(300);
    expect(backoffMs(4, 300, half)).toBe(1200);
  });

  it('spans the whole window: from no wait to just under the doubled round', () => {
    expect(backoffMs(1, 300, () => 0)).toBe(0);
    expect(backoffMs(3, 300, () => 0.999)).toBeCloseTo(1198.8, 6);
  });

  it('never waits more than five seconds, however long the rounds or many the beaten ones', () => {
    expect(backoffMs(30, 2000, () => 0.999)).toBe(5000);
    expect(backoffMs(100, 1e9, () => 0.999)).toBe(5000);
  });

  it('a round that took no measurable time still spreads the next one over a millisecond', () => {
    expect(backoffMs(1, 0, () => 0.5)).toBe(0.5);
  });
});
