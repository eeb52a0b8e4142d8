import { GitHelper } from './git-helper.js';
import { SharedHelpers } from './shared-helpers.js';

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

const batches = new SharedHelpers((repo) => new GitBatch(repo));

/**
 * A long-lived `git cat-file --batch` (a {@link GitHelper}): many object reads for the price of
 * one spawn. Reads are answered in order. One process serves every reader of a repository in
 * this process ({@link GitBatch.shared}); a reader holds it while it reads (docs/store.md,
 * "Long-lived git processes"). Each read sees the repository as it is when git answers it (git
 * reads loose refs and objects afresh, and looks for new packs when an object is missing).
 */
export class GitBatch {
  /** The process and its lifecycle. */
  readonly helper: GitHelper;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];

  /**
   * The repository's open batch process, started on first use or after the last one ended.
   *
   * @param repo - the repository's work tree (`state/canvas`)
   */
  static shared(repo: string): GitBatch {
    return batches.get(repo);
  }

  /** Start the process in a repository (use {@link GitBatch.shared} to share one). */
  constructor(private readonly repo: string) {
    this.helper = new GitHelper({
      repo,
      args: ['cat-file', '--batch'],
      onData: (b) => this.take(b),
      onExit: (failure) => {
        for (const p of this.queue.splice(0)) {
          this.helper.end();
          p.reject(failure);
        }
      },
    });
  }

  /** False once the process is closing or has ended. */
  get alive(): boolean {
    return this.helper.state === 'open';
  }

  /** Keep this process from its idle close until the returned function is called. */
  hold(): () => void {
    return this.helper.hold();
  }

  private answer(o: GitObject | null): void {
    const p = this.queue.shift();
    if (!p) return;
    this.helper.end();
    p.resolve(o);
  }

  private take(b: Buffer): void {
    this.buffer = this.buffer.length === 0 ? b : Buffer.concat([this.buffer, b]);
    while (this.queue.length > 0) {
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.answer(null);
        continue;
      }
      const [sha, type, sizeText] = header.split(' ');
      const size = Number(sizeText);
      if (this.buffer.length < nl + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(nl + 2 + size);
      this.answer({ sha: sha!, type: type as GitObject['type'], content });
    }
  }

  /**
   * Read one object by any revision expression (`main`, `refs/canvas/x:x.xml`, a sha prefix). A
   * batch that is no longer open hands the read to the repository's open one.
   *
   * @returns the object, or null when it is missing or the prefix is ambiguous
   * @throws CanvasError `GIT_HELPER_FAILED` when git ended before it answered
   */
  read(rev: string): Promise<GitObject | null> {
    if (this.helper.state !== 'open') return GitBatch.shared(this.repo).read(rev);
    if (/[\n\r]/.test(rev)) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.helper.begin();
      this.helper.send(`${rev}\n`);
    });
  }

  /** Stop the process: reads already sent are still answered, later ones go to a fresh one. */
  close(): void {
    this.helper.close();
  }
}
