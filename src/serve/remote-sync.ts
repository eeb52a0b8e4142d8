import { CanvasError } from '../model/canvas-error.js';
import { remoteUrl, syncWorkspace, type Workspace } from '../store/index.js';

/** How often `canvas serve` syncs with a shared remote unless told otherwise: 10 s (docs/serve.md, "A shared remote"). */
export const SYNC_EVERY_MS = 10_000;

/** How the last sync went, for the pages: null before the first one, or without a remote. */
export interface SyncState {
  url: string;
  /** The refusal's code when it failed (`REMOTE_UNREACHABLE`, …), else null. */
  error: string | null;
  /** When a sync last succeeded, ms since the epoch (null: not since the server started). */
  synced: number | null;
}

/**
 * `canvas serve`'s sync with the workspace's shared remote (docs/serve.md, "A shared remote"):
 * every `everyMs` (counted from the end of the last sync, so two never overlap) it calls
 * `syncWorkspace`, under the repository lock as a write is, and asks the ref watcher to read the
 * refs when the sync moved this repository forward, so every open page of a canvas another machine
 * changed catches up. A workspace without a remote costs one read of `.git/config` per period and
 * no git process; a remote set while the server runs is synced from the next period on. A failed
 * sync is written to standard error once (and its recovery once), never thrown: the pages keep
 * showing this machine's canvas and say since when it has not been synced.
 */
export class RemoteSync {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private last: SyncState | null = null;
  private readonly listeners = new Set<(state: SyncState) => void>();

  /**
   * @param ws - the served workspace
   * @param options - `everyMs`, the period in ms (0 never syncs); `moved`, called after a sync
   *   that moved this repository's refs; `report`, where a failure and a recovery are written
   *   (default standard error)
   */
  constructor(
    private readonly ws: Workspace,
    private readonly options: { everyMs: number; moved: () => void; report?: (line: string) => void },
  ) {}

  /**
   * Hear when syncing starts failing (with another code) or works again.
   *
   * @returns a function that stops listening
   */
  subscribe(listener: (state: SyncState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start the timer (the first sync one period from now: the server read the refs as it started). */
  start(): void {
    if (this.options.everyMs > 0) this.arm();
  }

  /** How the last sync went. */
  state(): SyncState | null {
    return this.last;
  }

  /** Stop the timer and wait for a sync in flight, so no git process outlives the server. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private arm(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.once().finally(() => {
        this.running = null;
        this.arm();
      });
    }, this.options.everyMs);
  }

  private async once(): Promise<void> {
    const url = await remoteUrl(this.ws.repo);
    if (url === null || this.closed) return;
    const before = this.last?.error ?? null;
    let followed = false;
    let failure: unknown = null;
    try {
      followed = (await syncWorkspace(this.ws)).followed;
    } catch (e) {
      failure = e;
    }
    const error = failure === null ? null : failure instanceof CanvasError ? failure.code : 'INTERNAL';
    this.last = { url, error, synced: error === null ? Date.now() : (this.last?.synced ?? null) };
    if (followed) this.options.moved();
    if (error === before) return;
    const report = this.options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
    if (error === null) report(`canvas serve: synced with ${url} again`);
    else report(`canvas serve: sync with ${url} failed (${error}): ${(failure as Error).message}; the pages say so; trying again every ${this.options.everyMs / 1000} s`);
    for (const l of this.listeners) l(this.last);
  }
}
