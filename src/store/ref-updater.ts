import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { gitConfigArgs, gitEnvironment } from './git.js';
import { holdOpen, IDLE_MS, repoIdentity } from './git-handles.js';

/** How a ref transaction ended: git's exit code (0 when it committed) and what it said. */
export interface RefResult {
  code: number;
  stderr: string;
}

const shared = new Map<string, RefUpdater>();

/**
 * A long-lived `git update-ref --stdin` for one repository: each write sends one explicit
 * transaction (`start`, the updates with their old values, `prepare`, `commit`) and waits for
 * git's `commit: ok`. A transaction git refuses (an old value that no longer holds) ends the
 * process with git's message; the next write starts another. The process is started before it
 * is needed (when a write takes the lock), holds this process open only while a transaction is
 * outstanding, and ends after a while without one.
 */
export class RefUpdater {
  private readonly child: ChildProcessWithoutNullStreams;
  private partial = '';
  private committed = 0;
  private err = '';
  private exited: number | null = null;
  private waiting: { oks: number; resolve: (r: RefResult) => void } | null = null;
  private idle: NodeJS.Timeout | null = null;
  /** The repository the process started in ({@link repoIdentity}). */
  private readonly identity: string;

  /**
   * The live updater of a repository, started now if there is none.
   *
   * @param repo - the repository's work tree (`state/canvas`)
   */
  static shared(repo: string): RefUpdater {
    const live = shared.get(repo);
    if (live && live.exited === null && live.identity === repoIdentity(repo)) return live;
    live?.close();
    const updater = new RefUpdater(repo);
    shared.set(repo, updater);
    return updater;
  }

  private constructor(private readonly repo: string) {
    this.identity = repoIdentity(repo);
    this.child = spawn('git', [...gitConfigArgs(repo), 'update-ref', '--stdin'], {
      cwd: repo,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (b: Buffer) => {
      const lines = (this.partial + b.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      this.committed += lines.filter((l) => l === 'commit: ok').length;
      this.check();
    });
    this.child.stderr.on('data', (b: Buffer) => {
      this.err += b.toString('utf8');
    });
    this.child.stdin.on('error', () => {});
    const end = (code: number, message?: string) => {
      if (this.exited !== null) return;
      this.exited = code;
      if (message) this.err += message;
      if (shared.get(repo) === this) shared.delete(repo);
      if (this.idle) clearTimeout(this.idle);
      const w = this.waiting;
      this.waiting = null;
      w?.resolve({ code: code === 0 ? 1 : code, stderr: this.err || `git update-ref ended (exit ${code})` });
    };
    this.child.on('error', (e) => end(1, `could not run git update-ref: ${e.message}`));
    this.child.on('close', (code) => end(code ?? 1));
    this.settle();
  }

  private check(): void {
    const w = this.waiting;
    if (!w) return;
    if (this.committed >= w.oks) {
      this.waiting = null;
      this.settle();
      w.resolve({ code: 0, stderr: '' });
    }
  }

  private settle(): void {
    if (this.waiting) {
      if (this.idle) {
        clearTimeout(this.idle);
        this.idle = null;
      }
      holdOpen(this.child, true);
      return;
    }
    holdOpen(this.child, false);
    if (!this.idle && this.exited === null) {
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  /**
   * Run one transaction. Callers hold the repository lock, so transactions never overlap.
   *
   * @param updates - `update <ref> <new> <old>` lines
   * @returns code 0 when git committed it, else git's exit code and message (nothing moved)
   */
  transaction(updates: readonly string[]): Promise<RefResult> {
    if (this.exited !== null) return RefUpdater.shared(this.repo).transaction(updates);
    const oks = this.committed + 1;
    return new Promise((resolve) => {
      this.waiting = { oks, resolve };
      this.settle();
      this.child.stdin.write(`start\n${updates.map((u) => `${u}\n`).join('')}prepare\ncommit\n`);
    });
  }

  /** End the process (an open transaction, if any, is aborted by git). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (shared.get(this.repo) === this) shared.delete(this.repo);
    this.child.stdin.end();
  }
}
