/**
 * The steps of a write, in order (docs/store.md, "Signals and the steps of a write"):
 *
 * - `locked`: the repository lock is held; nothing is checked yet;
 * - `checked`: every check passed; the commit's objects are written next;
 * - `commit`: the commit is written; the push (with a shared remote) or the ref update starts
 *   next. From here on the write cannot be taken back: this is its point of no return;
 * - `moved`: main moved: the write is applied;
 * - `files`: the working files and caches followed; the lock is let go next;
 * - `done`: the lock is let go; the outcome goes back to the caller.
 *
 * A write refused under the lock goes from `locked` to `done`.
 */
export type WriteStep = 'locked' | 'checked' | 'commit' | 'moved' | 'files' | 'done';

/** Every step, in the order a write applied passes them. */
export const WRITE_STEPS: readonly WriteStep[] = ['locked', 'checked', 'commit', 'moved', 'files', 'done'];

/** One step reached: the canvas written, and from `commit` on the commit's sha. */
export interface WriteStepEvent {
  step: WriteStep;
  ledger: string;
  /** The write's commit, from `commit` on (through `done` of a write that committed). */
  revision?: string;
}

/**
 * Told of each step as the write reaches it, before the step's work. A listener that returns a
 * promise holds the write there until it settles (a test stopping a writer at a step); one that
 * returns nothing costs the write nothing more than the call.
 */
export type WriteStepListener = (event: WriteStepEvent) => void | Promise<void>;

const listeners: WriteStepListener[] = [];

/**
 * Be told of each step of every write this process makes (docs/store.md, "Signals and the steps
 * of a write"). The store never prints and never handles a signal: the CLI listens, to hold
 * SIGINT and SIGTERM from the point of no return (`commit`) until the outcome is printed.
 *
 * @param listener - called at each step, in the order listeners were added
 * @returns a function that stops listening
 */
export function onWriteStep(listener: WriteStepListener): () => void {
  listeners.push(listener);
  return () => {
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  };
}

/**
 * Report a step to the listeners, synchronously, and wait only for those that returned a promise.
 *
 * @returns nothing, or a promise when a listener holds the write
 */
export function reachStep(event: WriteStepEvent): void | Promise<void> {
  const held: Array<Promise<void>> = [];
  for (const l of [...listeners]) {
    const r = l(event);
    if (r) held.push(r);
  }
  if (held.length > 0) return Promise.all(held).then(() => {});
}
