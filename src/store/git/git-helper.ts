import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CanvasError } from '../../model/canvas-error.js';
import { gitConfigArgs, gitEnvironment } from './git.js';
import { holdOpen, idleMs, repoIdentity } from './git-handles.js';

/**
 * The timers a helper's idle period runs on: the global ones unless a test passes its own
 * clock. `set` returns a handle that `clear` accepts.
 */
export interface HelperClock {
  set: (fire: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

/** Where a helper is in its life: `open` takes requests; `closing` and `closed` never do. */
export type HelperState = 'open' | 'closing' | 'closed';

/** What starts a {@link GitHelper}. */
export interface GitHelperOptions {
  /** The repository's work tree (`state/canvas`). */
  repo: string;
  /** git's arguments after the store's configuration, e.g. `['cat-file', '--batch']`. */
  args: readonly string[];
  /** Every chunk git writes to stdout, in order. */
  onData: (chunk: Buffer) => void;
  /** Once, when the process has ended or could not start: the error owed to unanswered requests. */
  onExit: (failure: CanvasError) => void;
  /** The idle period in milliseconds (default: {@link idleMs}). */
  idleMs?: number;
  /** The timers (default: the global `setTimeout` and `clearTimeout`). */
  clock?: HelperClock;
}

const GLOBAL_CLOCK: HelperClock = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** git's last words kept for an error, in characters. */
const STDERR_KEPT = 8192;

/**
 * One long-lived git process and its whole lifecycle, written once for every helper the store
 * keeps (`git cat-file --batch`, `git update-ref --stdin`; docs/store.md, "Long-lived git
 * processes"):
 *
 * - **spawn**: started with the store's git environment in the repository's work tree;
 * - **hold open**: while a request is outstanding ({@link GitHelper.begin} to
 *   {@link GitHelper.end}) it keeps this process alive; otherwise it never delays its exit;
 * - **idle timer**: it ends after its idle period with no request outstanding and no hold
 *   ({@link GitHelper.hold}); a hold (a write under the repository lock, a reader) or a request
 *   stops the timer, and releasing the last one starts it again;
 * - **closing**: {@link GitHelper.close} (the timer's, or an owner's) ends git's input and the
 *   state leaves `open` at once, so a closing or closed helper is never given a request: whoever
 *   holds one sees {@link GitHelper.state} and asks its owner for a fresh one.
 *
 * When the process ends, for whatever reason, `onExit` gets a `GIT_HELPER_FAILED` error naming
 * the exit code or signal and carrying git's stderr, for the requests it never answered.
 */
export class GitHelper {
  /** The process (its stdin takes requests through {@link GitHelper.send}). */
  private readonly child: ChildProcessWithoutNullStreams;
  private current: HelperState = 'open';
  private holds = 0;
  private pending = 0;
  private timer: unknown = null;
  private stderr = '';
  private readonly closeListeners: Array<() => void> = [];
  private readonly clock: HelperClock;
  private readonly idle: number;
  /** The repository the process started in ({@link repoIdentity}). */
  private readonly identity: string;
  /** How the helper names itself in errors, e.g. `git cat-file --batch`. */
  readonly name: string;
  readonly repo: string;

  /**
   * Start the process.
   *
   * @throws CanvasError `USAGE` when `CANVAS_GIT_IDLE_MS` is not a number of milliseconds
   */
  constructor(private readonly options: GitHelperOptions) {
    this.repo = options.repo;
    this.name = `git ${options.args.join(' ')}`;
    this.clock = options.clock ?? GLOBAL_CLOCK;
    this.idle = options.idleMs ?? idleMs();
    this.identity = repoIdentity(options.repo);
    this.child = spawn('git', [...gitConfigArgs(options.repo), ...options.args], {
      cwd: options.repo,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, as every git the store runs (src/store/git/git.ts).
      detached: true,
    });
    this.child.stdout.on('data', (b: Buffer) => options.onData(b));
    this.child.stderr.on('data', (b: Buffer) => {
      this.stderr = (this.stderr + b.toString('utf8')).slice(-STDERR_KEPT);
    });
    // Input written after git ended is lost; the exit below reports it.
    this.child.stdin.on('error', () => {});
    this.child.on('error', (e) => this.exited(null, null, e));
    this.child.on('close', (code, signal) => this.exited(code, signal, null));
    this.settle();
  }

  /** `open`, `closing` (input ended, git still running) or `closed` (git has ended). */
  get state(): HelperState {
    return this.current;
  }

  /** git's process id (undefined when it could not start). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True when it takes requests: open, and started in the repository that is at its path now. */
  get usable(): boolean {
    return this.current === 'open' && this.identity === repoIdentity(this.repo);
  }

  /**
   * Keep the helper from its idle close until the returned function is called (once; later
   * calls do nothing). A hold does not keep this process alive by itself.
   */
  hold(): () => void {
    this.holds += 1;
    this.settle();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.holds -= 1;
      this.settle();
    };
  }

  /** A request was sent and is awaited: hold this process open until {@link GitHelper.end}. */
  begin(): void {
    this.pending += 1;
    this.settle();
  }

  /** A request was answered (or given up when the process ended). */
  end(): void {
    if (this.pending > 0) this.pending -= 1;
    this.settle();
  }

  /**
   * Write request text to git.
   *
   * @throws CanvasError `INTERNAL` when the helper is not open (its owner hands out open ones only)
   */
  send(text: string): void {
    if (this.current !== 'open') {
      throw new CanvasError('INTERNAL', `${this.name} was given a request while ${this.current}`, 'run the command again');
    }
    this.child.stdin.write(text);
  }

  /** Call `listener` once, when the helper leaves `open` (at once if it already has). */
  onClose(listener: () => void): void {
    if (this.current === 'open') this.closeListeners.push(listener);
    else listener();
  }

  /**
   * End the process: git's input is closed, so git answers what it was already sent and exits.
   * The state leaves `open` now. Does nothing when it is already closing or closed.
   */
  close(): void {
    if (this.current !== 'open') return;
    this.leave('closing');
    this.child.stdin.end();
  }

  private leave(state: HelperState): void {
    const was = this.current;
    this.current = state;
    this.settle();
    if (was === 'open') for (const l of this.closeListeners.splice(0)) l();
  }

  private exited(code: number | null, signal: NodeJS.Signals | null, error: Error | null): void {
    if (this.current === 'closed') return;
    this.leave('closed');
    const how = error ? `could not run: ${error.message}` : signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
    const said = this.stderr.trim();
    this.options.onExit(
      new CanvasError(
        'GIT_HELPER_FAILED',
        `the store's own ${this.name} ${how}${said ? `: ${said}` : ''}`,
        'nothing was written by the request it did not answer; run the command again, and if it fails again run `canvas verify`',
        { helper: this.name, code, signal, stderr: this.stderr },
      ),
    );
  }

  /** The one place the idle timer and the process's hold on this one are decided. */
  private settle(): void {
    holdOpen(this.child, this.pending > 0 && this.current !== 'closed');
    const idle = this.current === 'open' && this.holds === 0 && this.pending === 0;
    if (!idle) {
      if (this.timer !== null) this.clock.clear(this.timer);
      this.timer = null;
      return;
    }
    if (this.timer !== null) return;
    const timer = this.clock.set(() => {
      if (this.timer !== timer) return;
      this.timer = null;
      // A timer that fires late (a clock that cannot cancel) still never closes a helper in use.
      if (this.holds === 0 && this.pending === 0) this.close();
    }, this.idle);
    (timer as { unref?: () => void } | null)?.unref?.();
    this.timer = timer;
  }
}
