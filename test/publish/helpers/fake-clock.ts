import type { Clock } from '../../../src/publish/basecamp-client.js';

/** A clock that never really sleeps: it records each wait and moves its time forward. */
export function fakeClock(): Clock & { sleeps: number[] } {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}
