import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CanvasError } from '../model/canvas-error.js';
import { gitConfigArgs, gitEnvironment } from './git.js';

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

/**
 * A long-lived `git cat-file --batch` process: many object reads for the price of one spawn.
 * Reads are answered in order. Call {@link GitBatch.close} when done.
 */
export class GitBatch {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private failed: Error | null = null;

  /** Start the process in a repository. */
  constructor(repo: string) {
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
      for (const p of this.queue.splice(0)) p.reject(e);
    };
    this.child.on('error', (e) => fail(new CanvasError('GIT_FAILED', `could not run git cat-file: ${e.message}`, 'install git')));
    this.child.on('close', () => fail(new CanvasError('GIT_FAILED', 'git cat-file --batch ended early', 'run `canvas verify`')));
    this.child.stdin.on('error', () => {});
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.queue.shift()!.resolve(null);
        continue;
      }
      const [sha, type, sizeText] = header.split(' ');
      const size = Number(sizeText);
      if (this.buffer.length < nl + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(nl + 2 + size);
      this.queue.shift()!.resolve({ sha: sha!, type: type as GitObject['type'], content });
    }
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
      this.child.stdin.write(`${rev}\n`);
    });
  }

  /** Stop the process. */
  close(): void {
    this.child.removeAllListeners('close');
    this.child.stdin.end();
    // Nothing more is read: git ends on its own at end of input, and this process need not wait
    // for it to exit (a command that is done exits at once).
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.child.unref();
  }
}
