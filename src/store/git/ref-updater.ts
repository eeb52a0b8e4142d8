import { CanvasError } from '../../model/canvas-error.js';
import { runGit } from './git.js';
import { GitHelper } from './git-helper.js';
import { SharedHelpers } from './shared-helpers.js';

/** How a ref transaction ended: git's exit code (0 when it committed) and what it said. */
export interface RefResult {
  code: number;
  stderr: string;
}

/** One ref of a transaction: where it goes, and where it must be now (`null`: must not exist). */
export interface RefMove {
  ref: string;
  next: string;
  old: string | null;
}

const ZERO = '0'.repeat(40);

const updaters = new SharedHelpers((repo) => new RefUpdater(repo));

/**
 * The repository's `git update-ref --stdin` (a {@link GitHelper}): each write sends one explicit
 * transaction (`start`, the updates with their old values, `prepare`, `commit`) and waits for
 * git's `commit: ok`. A transaction git refuses (an old value that no longer holds) ends the
 * process with git's message; the next write starts another. A write takes the updater when it
 * takes the repository lock and holds it ({@link RefUpdater.hold}) until it lets the lock go, so
 * the idle close never meets a write (docs/store.md, "Long-lived git processes").
 */
export class RefUpdater {
  /** The process and its lifecycle. */
  readonly helper: GitHelper;
  private partial = '';
  private committed = 0;
  private waiting: { oks: number; resolve: (r: RefResult) => void } | null = null;

  /**
   * The repository's open updater, started now if there is none.
   *
   * @param repo - the repository's work tree (`state/canvas`)
   */
  static shared(repo: string): RefUpdater {
    return updaters.get(repo);
  }

  /** Start an updater (use {@link RefUpdater.shared} to share one). */
  constructor(private readonly repo: string) {
    this.helper = new GitHelper({
      repo,
      args: ['update-ref', '--stdin'],
      onData: (b) => {
        const lines = (this.partial + b.toString('utf8')).split('\n');
        this.partial = lines.pop() ?? '';
        this.committed += lines.filter((l) => l === 'commit: ok').length;
        const w = this.waiting;
        if (w && this.committed >= w.oks) this.answer({ code: 0, stderr: '' });
      },
      onExit: (failure) => {
        const stderr = String(failure.data.stderr ?? '').trim() || failure.message;
        const code = typeof failure.data.code === 'number' && failure.data.code !== 0 ? failure.data.code : 1;
        this.answer({ code, stderr });
      },
    });
  }

  private answer(r: RefResult): void {
    const w = this.waiting;
    if (!w) return;
    this.waiting = null;
    this.helper.end();
    w.resolve(r);
  }

  /** Keep this updater from its idle close until the returned function is called. */
  hold(): () => void {
    return this.helper.hold();
  }

  /**
   * Run one transaction. Callers hold the repository lock, so transactions never overlap. An
   * updater that is no longer open hands the transaction to the repository's open one.
   *
   * @param updates - `update <ref> <new> <old>` lines
   * @returns code 0 when git committed it, else git's exit code and message (and git's stderr)
   */
  transaction(updates: readonly string[]): Promise<RefResult> {
    if (this.helper.state !== 'open') return RefUpdater.shared(this.repo).transaction(updates);
    const oks = this.committed + 1;
    return new Promise((resolve) => {
      this.waiting = { oks, resolve };
      this.helper.begin();
      this.helper.send(`start\n${updates.map((u) => `${u}\n`).join('')}prepare\ncommit\n`);
    });
  }

  /**
   * Move refs together, each checked against its old value (docs/store.md, "Concurrency and
   * crashes"). When git does not commit, the refs themselves say why: one that holds another
   * value than expected really moved (`REF_MOVED`); when all still hold their old values the
   * store's own helper failed or refused (`GIT_HELPER_FAILED`, git's stderr in `data.stderr`);
   * when all already hold their new values git committed and only its answer was lost.
   *
   * @param moves - the refs, their new values and the old values they must have now
   * @throws CanvasError `REF_MOVED`, `GIT_HELPER_FAILED`, `GIT_FAILED` (the refs could not be read)
   */
  async move(moves: readonly RefMove[]): Promise<void> {
    const result = await this.transaction(moves.map((m) => `update ${m.ref} ${m.next} ${m.old ?? ZERO}`));
    if (result.code === 0) return;
    const listed = await runGit(this.repo, ['for-each-ref', '--format=%(refname) %(objectname)', ...moves.map((m) => m.ref)]);
    const now = new Map(
      listed.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ') as [string, string]),
    );
    const at = (m: RefMove) => now.get(m.ref) ?? null;
    if (moves.every((m) => at(m) === m.next)) return;
    const moved = moves.find((m) => at(m) !== m.old && at(m) !== m.next);
    if (moved) {
      throw new CanvasError(
        'REF_MOVED',
        `${moved.ref} moved while the repository lock was held: it is at ${at(moved) ?? 'nothing'}, the write expected ${moved.old ?? 'nothing'}${result.stderr ? ` (git: ${result.stderr.trim()})` : ''}`,
        'something outside the tool writes to this repository; run `canvas verify`',
        { ref: moved.ref, expected: moved.old, actual: at(moved), stderr: result.stderr },
      );
    }
    throw new CanvasError(
      'GIT_HELPER_FAILED',
      `the store's own git update-ref --stdin did not commit (exit ${result.code}) and no ref moved: ${result.stderr.trim() || 'git said nothing'}`,
      'nothing was written; run the command again, and if it fails again run `canvas verify`',
      { helper: 'git update-ref --stdin', code: result.code, stderr: result.stderr, refs: moves.map((m) => m.ref) },
    );
  }

  /** End the process (an open transaction, if any, is aborted by git). */
  close(): void {
    this.helper.close();
  }
}
