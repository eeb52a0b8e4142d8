import type { Clock } from '../../../src/model/clock.js';

/** A request timeout armed on the fake clock: its length and its signal. */
export interface FakeTimeout {
  ms: number;
  signal: AbortSignal;
}

/**
 * A clock that never really sleeps: it records each wait and moves its time forward. Request
 * timeouts run on the same time: they expire only when the clock is moved past them (a sleep or
 * {@link advance}), never because the machine is slow.
 */
export function fakeClock(): Clock & { sleeps: number[]; timeouts: FakeTimeout[]; advance: (ms: number) => void } {
  let t = 0;
  const sleeps: number[] = [];
  const timeouts: FakeTimeout[] = [];
  const armed: { at: number; controller: AbortController }[] = [];
  const advance = (ms: number): void => {
    t += ms;
    for (const timer of armed.filter((a) => a.at <= t && !a.controller.signal.aborted)) {
      timer.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }
  };
  return {
    sleeps,
    timeouts,
    advance,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      advance(ms);
    },
    timeout: (ms: number) => {
      const controller = new AbortController();
      armed.push({ at: t + ms, controller });
      timeouts.push({ ms, signal: controller.signal });
      return controller.signal;
    },
  };
}
