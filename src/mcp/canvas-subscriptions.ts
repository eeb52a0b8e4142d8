/**
 * The subscriptions of one MCP connection (docs/mcp.md, "Resources and subscriptions"): which
 * canvases its client follows, and the one ref watcher that tells it when they move. A client
 * follows a canvas in the words of its protocol revision, and both end here:
 *
 * - 2025-era: `resources/subscribe` with `canvas://<ledger>` (register-canvas-resources.ts), one
 *   follow per URI, ended by `resources/unsubscribe`;
 * - 2026-07-28: `subscriptions/listen` with the URIs in `resourceSubscriptions`
 *   (listen-gate.ts), one follow per listen request, ended when it is cancelled.
 *
 * Either way the server sends `notifications/resources/updated` for a followed canvas whose
 * revision moved, through the server connected now ({@link CanvasSubscriptions.attach}); on the
 * 2026-07-28 revision the SDK's stdio entry sends it on every listen that asked for that URI. A
 * new canvas is `notifications/resources/list_changed`. The watcher starts at the first follow
 * and is closed with the connection ({@link CanvasSubscriptions.close}), so a connection that
 * follows nothing watches nothing and a closed one leaves nothing running.
 */
import { type RefChange, RefWatcher, type Workspace } from '../store/index.js';

/** What the subscriptions need of the server connected now: a way to notify its client. */
export interface Notifier {
  sendResourceUpdated: (params: { uri: string }) => Promise<void>;
  sendResourceListChanged: () => Promise<void>;
}

/** The URI of a canvas's resource. */
export const uriOf = (ledger: string): string => `canvas://${ledger}`;

/** One connection's follows and its ref watcher. One owner, one lifecycle: close once. */
export class CanvasSubscriptions {
  /** Each follow (a subscribed URI, or a listen request) with the canvases it names. */
  private readonly follows = new Map<string, ReadonlySet<string>>();
  private watcher: RefWatcher | null = null;
  private starting: Promise<void> | null = null;
  private notifier: Notifier | null = null;
  private closed = false;

  constructor(private readonly ws: Workspace) {}

  /** Send through this server from now on (the one the connection is pinned to). */
  attach(notifier: Notifier): void {
    this.notifier = notifier;
  }

  /**
   * Follow canvases under a key (a URI, or a listen request's id); the first follow starts the
   * watcher, whose refs are read before this resolves, so no later move is missed.
   *
   * @param key - what ends the follow: the URI for `resources/unsubscribe`, the listen's id
   * @param ledgers - the canvases followed
   */
  async follow(key: string, ledgers: readonly string[]): Promise<void> {
    if (this.closed) return;
    this.follows.set(key, new Set(ledgers));
    if (this.watcher) return this.starting ?? undefined;
    const watcher = new RefWatcher(this.ws);
    this.watcher = watcher;
    watcher.subscribe((changes) => this.tell(changes));
    this.starting = watcher.start();
    await this.starting;
  }

  /** Stop the follow of this key (the watcher runs on until the connection closes). */
  unfollow(key: string): void {
    this.follows.delete(key);
  }

  /** Whether any follow names this canvas. */
  private followed(ledger: string): boolean {
    for (const ledgers of this.follows.values()) if (ledgers.has(ledger)) return true;
    return false;
  }

  /** Stop the watcher; nothing more is sent. */
  close(): void {
    this.closed = true;
    this.follows.clear();
    this.watcher?.close();
  }

  private tell(changes: RefChange[]): void {
    const notifier = this.notifier;
    if (this.closed || notifier === null) return;
    const sent = (p: Promise<void>) =>
      p.catch(() => {
        // The client went away; nothing is left to tell.
      });
    for (const c of changes) if (this.followed(c.ledger)) void sent(notifier.sendResourceUpdated({ uri: uriOf(c.ledger) }));
    if (changes.some((c) => c.from === null)) void sent(notifier.sendResourceListChanged());
  }
}
