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

/** An object whose header was read and whose content is still arriving. */
interface Body {
  sha: string;
  type: GitObject['type'];
  size: number;
  /** The content's chunks so far, with the line feed that ends it. */
  chunks: Buffer[];
  have: number;
}

const batches = new SharedHelpers((repo) => new GitBatch(repo));

/**
 * A long-lived `git cat-file --batch` (a {@link GitHelper}): many object reads for the price of
 * one spawn. Reads are answered in order. One process serves every reader of a repository in
 * this process ({@link GitBatch.shared}); a reader holds it while it reads (docs/store.md,
 * "Long-lived git processes"). Each read sees the repository as it is when git answers it (git
 * reads loose refs and objects afresh, and looks for new packs when an object is missing).
 *
 * An object's content is collected chunk by chunk and joined once, so reading an object costs
 * time linear in its size.
 */
export class GitBatch {
  /** The process and its lifecycle. */
  readonly helper: GitHelper;
  /** Bytes not yet parsed that hold no complete header line (a header is short). */
  private head: Buffer = Buffer.alloc(0);
  private body: Body | null = null;
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

  /** Parse what git wrote: headers, and contents collected in chunks and joined once. */
  private take(chunk: Buffer): void {
    let b = chunk;
    while (b.length > 0) {
      const body = this.body;
      if (body) {
        const need = body.size + 1 - body.have;
        const part = b.length <= need ? b : b.subarray(0, need);
        body.chunks.push(part);
        body.have += part.length;
        b = b.subarray(part.length);
        if (body.have < body.size + 1) return;
        this.body = null;
        // One copy either way: a content in one chunk is copied out of it (so a small object never
        // keeps a large chunk of git's output alive); one in many is joined once.
        const content = body.chunks.length === 1 ? Buffer.from(body.chunks[0]!.subarray(0, body.size)) : Buffer.concat(body.chunks, body.have).subarray(0, body.size);
        this.answer({ sha: body.sha, type: body.type, content });
        continue;
      }
      const joined = this.head.length === 0 ? b : Buffer.concat([this.head, b]);
      const nl = joined.indexOf(10);
      if (nl < 0) {
        this.head = Buffer.from(joined);
        return;
      }
      this.head = Buffer.alloc(0);
      const header = joined.subarray(0, nl).toString('utf8');
      b = joined.subarray(nl + 1);
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.answer(null);
        continue;
      }
      const [sha, type, sizeText] = header.split(' ');
      this.body = { sha: sha!, type: type as GitObject['type'], size: Number(sizeText), chunks: [], have: 0 };
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

  /**
   * Read many objects with one write to git (docs/store.md, "Long-lived git processes"): the
   * requests go out together and are answered in order, so a round of N reads costs one round
   * trip instead of N.
   *
   * @param revs - revision expressions, as for {@link GitBatch.read}
   * @returns each object or null, in the order asked
   * @throws CanvasError `GIT_HELPER_FAILED` when git ended before it answered
   */
  readMany(revs: readonly string[]): Promise<Array<GitObject | null>> {
    if (this.helper.state !== 'open') return GitBatch.shared(this.repo).readMany(revs);
    const lines: string[] = [];
    const answers = revs.map((rev) => {
      if (/[\n\r]/.test(rev)) return Promise.resolve(null);
      lines.push(rev);
      return new Promise<GitObject | null>((resolve, reject) => {
        this.queue.push({ resolve, reject });
        this.helper.begin();
      });
    });
    if (lines.length > 0) this.helper.send(`${lines.join('\n')}\n`);
    return Promise.all(answers);
  }

  /** Stop the process: reads already sent are still answered, later ones go to a fresh one. */
  close(): void {
    this.helper.close();
  }
}
