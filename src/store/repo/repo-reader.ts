import { CanvasError } from '../../model/canvas-error.js';
import { type CanvasCommit, parseCommit } from './canvas-commit.js';
import { GitBatch } from '../git/git-batch.js';
import { repoExists } from '../files/permission-denied.js';
import { checkedRevision } from './rebuild-canvas-refs.js';
import type { Workspace } from './workspace.js';

/**
 * Reads of one repository through its shared `git cat-file --batch` process: refs, commits,
 * blobs, and a canvas's own chain of commits (each commit's `Canvas-Previous` names the one
 * before, so a canvas's history is a walk of its chain, never a scan of the repository).
 */
export class RepoReader {
  private readonly parsed = new Map<string, CanvasCommit>();
  /**
   * Commits a ref resolved to, as git sent them (content-addressed, so always right for their
   * sha): {@link RepoReader.commit} parses one from here instead of asking git again. A read asks
   * for main and then for its commit (docs/store.md, "Canvas refs"); a write asks for both too.
   */
  private readonly resolved = new Map<string, Buffer>();
  private readonly checked = new Set<string>();
  private found = false;
  private batch: GitBatch | null = null;
  private release: (() => void) | null = null;

  /**
   * @param ws - the workspace
   * @param options - `locked`: the caller holds the repository lock (a write, `canvas verify`), so
   *   a canvas ref that needs rebuilding is rebuilt without taking it again
   */
  constructor(
    readonly ws: Workspace,
    private readonly options: { locked?: boolean } = {},
  ) {}

  /**
   * True when the repository exists (the first `canvas create` makes it; once seen, it stays).
   *
   * @throws CanvasError `PERMISSION_DENIED` when this user may not look into the repository
   */
  exists(): boolean {
    if (!this.found) this.found = repoExists(this.ws.repo);
    return this.found;
  }

  /**
   * The repository's shared `git cat-file --batch` (see {@link GitBatch.shared}), looked up once
   * per reader and held until {@link RepoReader.close}, so it is not closed for idleness while
   * this reader reads; a process that ended is replaced.
   */
  private get git(): GitBatch {
    if (!this.batch?.alive) {
      this.release?.();
      this.batch = GitBatch.shared(this.ws.repo);
      this.release = this.batch.hold();
    }
    return this.batch;
  }

  /** The raw object at a revision expression, or null. */
  async object(rev: string): Promise<Buffer | null> {
    if (!this.exists()) return null;
    return (await this.git.read(rev))?.content ?? null;
  }

  /** The full sha and type an expression resolves to, or null. */
  async resolve(rev: string): Promise<{ sha: string; type: string } | null> {
    if (!this.exists()) return null;
    const o = await this.git.read(rev);
    if (o?.type === 'commit') this.resolved.set(o.sha, o.content);
    return o ? { sha: o.sha, type: o.type } : null;
  }

  /** A commit by sha or expression, parsed and cached, or null. */
  async commit(rev: string): Promise<CanvasCommit | null> {
    const cached = this.parsed.get(rev);
    if (cached) return cached;
    const content = this.resolved.get(rev);
    if (content) {
      const c = parseCommit(rev, content);
      this.parsed.set(rev, c);
      return c;
    }
    if (!this.exists()) return null;
    const o = await this.git.read(rev.length === 40 ? rev : `${rev}^{commit}`);
    if (o?.type !== 'commit') return null;
    const c = parseCommit(o.sha, o.content);
    this.parsed.set(o.sha, c);
    return c;
  }

  /**
   * Many commits by sha in one round trip (see {@link GitBatch.readMany}), parsed and cached.
   *
   * @param shas - full commit shas
   * @returns each commit, or null for one that is missing or not a commit, in the order asked
   */
  async commits(shas: readonly string[]): Promise<Array<CanvasCommit | null>> {
    const missing = shas.filter((sha) => !this.parsed.has(sha));
    if (missing.length > 0 && this.exists()) {
      for (const o of await this.git.readMany(missing)) if (o?.type === 'commit') this.parsed.set(o.sha, parseCommit(o.sha, o.content));
    }
    return shas.map((sha) => this.parsed.get(sha) ?? null);
  }

  /**
   * Many files in one round trip (see {@link GitBatch.readMany}).
   *
   * @param at - pairs of a commit and a path in its tree
   * @returns each file's bytes, or null when absent, in the order asked
   */
  async files(at: ReadonlyArray<readonly [commit: string, path: string]>): Promise<Array<Buffer | null>> {
    return (await this.blobs(at)).map((b) => b?.content ?? null);
  }

  /**
   * Many files in one round trip, each with its blob sha as git names it (the hash of its bytes).
   *
   * @param at - pairs of a commit and a path in its tree
   * @returns each file's sha and bytes, or null when absent, in the order asked
   */
  async blobs(at: ReadonlyArray<readonly [commit: string, path: string]>): Promise<Array<{ sha: string; content: Buffer } | null>> {
    if (!this.exists()) return at.map(() => null);
    return (await this.git.readMany(at.map(([commit, path]) => `${commit}:${path}`))).map((o) => (o?.type === 'blob' ? { sha: o.sha, content: o.content } : null));
  }

  /** The sha `main` points at, or null before the first commit. */
  async main(): Promise<string | null> {
    return (await this.resolve('refs/heads/main'))?.sha ?? null;
  }

  /**
   * The canvas's revision (`refs/canvas/<ledger>`), or null when there is no such canvas. The
   * first time a reader asks for a canvas, a ref that is missing while main has the canvas (a
   * clone), or that may be behind main's history of it (a write cut short between its two ref
   * updates), is rebuilt from main first (docs/store.md, "Canvas refs"); the normal path costs
   * one more read through the open batch and one small file read.
   */
  async revision(ledger: string): Promise<string | null> {
    const ref = (await this.resolve(`refs/canvas/${ledger}`))?.sha ?? null;
    if (this.checked.has(ledger)) return ref;
    this.checked.add(ledger);
    return checkedRevision(this, ledger, ref, this.options.locked === true);
  }

  /** A file's bytes at a commit, or null when absent. */
  async file(commit: string, path: string): Promise<Buffer | null> {
    return (await this.blob(commit, path))?.content ?? null;
  }

  /** A file at a commit as git stores it: its blob sha (as git names it, not hashed here) and bytes, or null when absent. */
  async blob(commit: string, path: string): Promise<{ sha: string; content: Buffer } | null> {
    const o = this.exists() ? await this.git.read(`${commit}:${path}`) : null;
    return o && o.type === 'blob' ? { sha: o.sha, content: o.content } : null;
  }

  /**
   * Walk a canvas's chain from a revision back to its create, newest first.
   *
   * @param from - the revision to start at
   * @param stop - optional: stop before the commit for which this returns true
   */
  async *chain(from: string, stop?: (c: CanvasCommit) => boolean): AsyncGenerator<CanvasCommit> {
    let sha: string | undefined = from;
    while (sha) {
      const c = await this.commit(sha);
      if (!c) {
        throw new CanvasError('INTERNAL', `the canvas chain is broken at ${sha}`, 'run `canvas verify`', { commit: sha });
      }
      if (stop?.(c)) return;
      yield c;
      sha = c.trailers['Canvas-Previous'];
    }
  }

  /** Done reading: the shared batch process stays for the next reader and ends when idle. */
  close(): void {
    this.parsed.clear();
    this.resolved.clear();
    this.release?.();
    this.release = null;
    this.checked.clear();
    this.batch = null;
  }
}
