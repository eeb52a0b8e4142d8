import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CanvasError } from '../model/canvas-error.js';
import { gitConfigArgs, gitEnvironment } from './git.js';
import { holdOpen, IDLE_MS, repoIdentity } from './git-handles.js';

/** One object read through `git cat-file --batch`. */
export interface GitObject {
  sha: string;
  type: 'commit' | 'tree' | 'blob' | 'tag';
  content: Buffer;
}

interface Pending {
  resolve: (o: GitObject | null) => void;
  reject: (e: Error) => void;
}

const shared = new Map<string, GitBatch>();

/**
 * A long-lived `git cat-file --batch` process: many object reads for the price of one spawn.
 * Reads are answered in order. One process serves every reader of a repository in this process
 * ({@link GitBatch.shared}); it holds the process open only while a read is outstanding and ends
 * after a while without reads. Each read sees the repository as it is when git answers it (git
 * reads loose refs and objects afresh, and looks for new packs when an object is missing).
 */
export class GitBatch {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private failed: Error | null = null;
  private idle: NodeJS.Timeout | null = null;
  /** The repository the process started in ({@link repoIdentity}). */
  private readonly identity: string;

  /**
   * The live batch process of a repository, started on first use or after the last one ended.
   *
   * @param repo - the repository's work tree (`state/canvas`)
   */
  static shared(repo: string): GitBatch {
    const live = shared.get(repo);
    if (live && !live.failed && live.identity === repoIdentity(repo)) return live;
    live?.close();
    const batch = new GitBatch(repo);
    shared.set(repo, batch);
    return batch;
  }

  /** Start the process in a repository (use {@link GitBatch.shared} to share one). */
  constructor(private readonly repo: string) {
    this.identity = repoIdentity(repo);
    this.child = spawn('git', [...gitConfigArgs(repo), 'cat-file', '--batch'], {
      cwd: repo,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (b: Buffer) => {
      this.buffer = this.buffer.length === 0 ? b : Buffer.concat([this.buffer, b]);
      this.drain();
    });
    const fail = (e: Error) => {
      this.failed = e;
      if (shared.get(repo) === this) shared.delete(repo);
      if (this.idle) clearTimeout(this.idle);
      for (const p of this.queue.splice(0)) p.reject(e);
    };
    this.child.on('error', (e) => fail(new CanvasError('GIT_FAILED', `could not run git cat-file: ${e.message}`, 'install git')));
    this.child.on('close', () => fail(new CanvasError('GIT_FAILED', 'git cat-file --batch ended early', 'run `canvas verify`')));
    this.child.stdin.on('error', () => {});
    holdOpen(this.child, false);
  }

  /** False once the process has ended or was closed. */
  get alive(): boolean {
    return this.failed === null;
  }

  /** Keep the process open while reads are outstanding; end it after a while without any. */
  private settle(): void {
    if (this.queue.length > 0) {
      if (this.idle) {
        clearTimeout(this.idle);
        this.idle = null;
      }
      holdOpen(this.child, true);
      return;
    }
    holdOpen(this.child, false);
    if (!this.idle && !this.failed) {
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.queue.shift()!.resolve(null);
        this.settle();
        continue;
      }
      const [sha, type, sizeText] = header.split(' ');
      const size = Number(sizeText);
      if (this.buffer.length < nl + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(nl + 2 + size);
      this.queue.shift()!.resolve({ sha: sha!, type: type as GitObject['type'], content });
    }
    this.settle();
  }

  /**
   * Read one object by any revision expression (`main`, `refs/canvas/x:x.xml`, a sha prefix).
   *
   * @returns the object, or null when it is missing or the prefix is ambiguous
   */
  read(rev: string): Promise<GitObject | null> {
    if (this.failed) return Promise.reject(this.failed);
    if (/[\n\r]/.test(rev)) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.settle();
      this.child.stdin.write(`${rev}\n`);
    });
  }

  /** Stop the process (reads still queued are refused). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (!this.failed) this.failed = new CanvasError('GIT_FAILED', 'git cat-file --batch was closed', 'run the command again');
    for (const p of this.queue.splice(0)) p.reject(this.failed);
    if (shared.get(this.repo) === this) shared.delete(this.repo);
    this.child.removeAllListeners('close');
    this.child.stdin.end();
    // Nothing more is read: git ends on its own at end of input, and this process need not wait
    // for it to exit (a command that is done exits at once).
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.child.unref();
  }
}
