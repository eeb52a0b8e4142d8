/**
 * The clock a remote client keeps its time budget by and waits on: both remote clients (the
 * Basecamp publisher and the coherence checker's model client) take one, and tests pass one that
 * does not really sleep (docs/basecamp.md, "Talking to Basecamp"; docs/coherence.md, "Failures").
 */
export interface Clock {
  /** Milliseconds, monotonic enough for budgets. */
  now(): number;
  /** Wait `ms` milliseconds on this clock. */
  sleep(ms: number): Promise<void>;
  /**
   * A signal that aborts with a `TimeoutError` once `ms` milliseconds have passed on this clock:
   * one request's timeout (each client says what it uses without one). Tests pass one they expire
   * themselves, so that a request times out when the test says and never because the machine is
   * slow.
   */
  timeout?(ms: number): AbortSignal;
}
