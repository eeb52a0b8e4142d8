import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { listCanvases, readCanvasRefFiles } from '../repo/list-canvases.js';
import type { Workspace } from '../repo/workspace.js';

/** One canvas whose revision moved (`from` is null for a canvas that is new). */
export interface RefChange {
  ledger: string;
  from: string | null;
  to: string;
}

/** Timings of a {@link RefWatcher}, in milliseconds (tests shorten them). */
interface WatchTimings {
  /** How long a burst of file events is let settle before the refs are read (default 10). */
  settleMs?: number | undefined;
  /** The fallback read of the refs when no file event came (default 5000). */
  rescanMs?: number | undefined;
}

/**
 * The folders a {@link RefWatcher} watches, each with the names in it that matter (null: every
 * name). The ref folders are watched whole; `.git` itself only for `packed-refs` and a replaced
 * `refs` (not for the files others make there, the repository lock's among them: a read that
 * tries the lock makes one, which would wake the watcher to read again, and again); the parents
 * (the workspace root, `state`, the repository) only for the next folder on the way, so a
 * repository made or replaced after the start is seen.
 *
 * @param repo - the repository's work tree (`Workspace.repo`)
 * @returns folder paths with the names that wake the watcher
 */
export function watchedFolders(repo: string): Array<[string, ReadonlySet<string> | null]> {
  const git = join(repo, '.git');
  const state = dirname(repo);
  return [
    [dirname(state), new Set([basename(state)])],
    [state, new Set([basename(repo)])],
    [repo, new Set(['.git'])],
    [git, new Set(['packed-refs', 'refs'])],
    [join(git, 'refs'), null],
    [join(git, 'refs', 'heads'), null],
    [join(git, 'refs', 'canvas'), null],
  ];
}

/**
 * The one watcher of a repository's canvas refs (docs/serve.md, "Live"; docs/mcp.md,
 * "Resources and subscriptions"): every open page of `canvas serve`, and every subscribed canvas
 * of the MCP server, learns from one per process, none polls. It watches the folders git rewrites
 * when a write moves `main` and `refs/canvas/<ledger>` (`.git/refs/heads`, `.git/refs/canvas`,
 * `.git/refs`, and `.git` itself for `packed-refs`), and the folders above the repository for the
 * one name on the way to it, so a repository made after the start, or a `.git` or refs folder
 * replaced, is watched again at its first event; it reads the refs once per burst of events (the
 * ref files, in process) and tells each listener which canvases moved. Reads never overlap: a
 * burst during a read is read after it. A slow fallback read (every `rescanMs`, through git)
 * covers what no file event tells (a file system without them). docs/store.md, "Canvas refs".
 *
 * One owner, one lifecycle: {@link RefWatcher.start} once, {@link RefWatcher.close} once.
 */
export class RefWatcher {
  private readonly known = new Map<string, string>();
  private readonly listeners = new Set<(changes: RefChange[]) => void>();
  private readonly watchers = new Map<string, { w: FSWatcher; id: string }>();
  private settle: NodeJS.Timeout | null = null;
  private rescan: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  /** Whether the next read asks git (a fallback read, or a caller's poke), not the ref files. */
  private full = false;
  /** Whether the refs may have moved since the last read: set when no one listened to an event. */
  private stale = false;
  private closed = false;

  constructor(
    private readonly ws: Workspace,
    private readonly timings: WatchTimings = {},
  ) {}

  /** Read the refs once and start watching. */
  async start(): Promise<void> {
    for (const c of await listCanvases(this.ws)) this.known.set(c.ledger, c.revision);
    this.arm();
    this.rescan = setInterval(() => this.poke(), this.timings.rescanMs ?? 5000);
    this.rescan.unref();
  }

  /**
   * Every canvas and its revision, as last read: while no one listens the watcher does not read
   * (see {@link RefWatcher.current}).
   */
  revisions(): ReadonlyMap<string, string> {
    return this.known;
  }

  /** Every canvas and its revision now: read first when the refs may have moved since the last read. */
  async current(): Promise<ReadonlyMap<string, string>> {
    if (this.stale && !this.closed) await this.read();
    return this.known;
  }

  /**
   * Listen for moved refs. A watcher no one listens to only notes that the refs may have moved
   * (a file event, the fallback read, a poke): a write then costs it no read, nor an idle
   * workspace a `git for-each-ref` every few seconds. The first listener after that has the refs
   * read at once.
   *
   * @returns a function that stops listening
   */
  subscribe(listener: (changes: RefChange[]) => void): () => void {
    this.listeners.add(listener);
    if (this.stale) this.soon();
    return () => this.listeners.delete(listener);
  }

  /**
   * Read the refs now through git (and tell the listeners), as the fallback read does: for a
   * caller that moved refs itself (a sync with the shared remote), and may have left them to rebuild.
   */
  poke(): void {
    this.full = true;
    this.soon();
  }

  /** Read the refs after the burst of file events settles; or, while no one listens, note that they may have moved. */
  private soon(): void {
    if (this.closed || this.settle) return;
    if (this.listeners.size === 0) {
      this.stale = true;
      return;
    }
    this.settle = setTimeout(() => {
      this.settle = null;
      void this.read();
    }, this.timings.settleMs ?? 10);
  }

  /** Stop watching; listeners hear nothing more. */
  close(): void {
    this.closed = true;
    for (const { w } of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.settle) clearTimeout(this.settle);
    if (this.rescan) clearInterval(this.rescan);
    this.listeners.clear();
  }

  /**
   * Watch each folder that exists and is not watched yet, and watch again each one that was
   * replaced since it was watched (a file watch follows the folder it was opened on, not its path):
   * a folder is known by its inode and birth time. A folder that is gone is let go.
   */
  private arm(): void {
    for (const [dir, only] of watchedFolders(this.ws.repo)) {
      let id: string;
      try {
        const st = statSync(dir, { bigint: true });
        if (!st.isDirectory()) throw new Error('not a folder');
        id = `${st.ino}:${st.birthtimeNs}`;
      } catch {
        this.unwatch(dir);
        continue;
      }
      if (this.watchers.get(dir)?.id === id) continue;
      this.unwatch(dir);
      try {
        const w = watch(dir, (_event, name) => {
          if (only === null || name === null || only.has(name)) this.soon();
        });
        w.on('error', () => this.unwatch(dir));
        this.watchers.set(dir, { w, id });
      } catch {
        // Gone between the check and the watch: the next event or the fallback read arms it.
      }
    }
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.w.close();
    this.watchers.delete(dir);
  }

  private read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.compare();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /**
   * Read the refs and tell the listeners what moved. After a file event the ref files are read
   * in process (readCanvasRefFiles): a write wakes every long-lived process that follows the
   * canvases, and a `git for-each-ref` each, with the fork of a large process, cost more CPU than
   * the write's own git work. The fallback read and a caller's poke ask git (listCanvases), which
   * also rebuilds refs left behind main; so does a read the files cannot answer.
   */
  private async compare(): Promise<void> {
    this.arm();
    const full = this.full;
    this.full = false;
    this.stale = false;
    let now: Awaited<ReturnType<typeof listCanvases>>;
    try {
      now = (full ? null : readCanvasRefFiles(this.ws)) ?? (await listCanvases(this.ws));
    } catch {
      return; // a repository mid-write (a lock held): the next event or the fallback reads again
    }
    const changes: RefChange[] = [];
    for (const c of now) {
      const from = this.known.get(c.ledger) ?? null;
      if (from !== c.revision) changes.push({ ledger: c.ledger, from, to: c.revision });
      this.known.set(c.ledger, c.revision);
    }
    if (changes.length === 0 || this.closed) return;
    for (const l of this.listeners) l(changes);
  }
}
