// The live canvas tab (docs/serve.md). What is true of it, plainly:
//
// - It READS: the index and each canvas page are the pages `canvas build` makes, rendered by the
//   same renderers from the same snapshot, with one script and one stylesheet of this server
//   added. One watcher of the repository's refs tells every open page when a canvas moved.
// - It WRITES ONLY THROUGH THE STORE'S VERBS: an edit in the page is a JSON POST that this server
//   hands to `insertNode`, `replaceNode`, `removeNode`, `moveNode`, `approveProposal` or
//   `rejectProposal`, authored as the person who started the server, with the base the page
//   showed and the reason typed in it; the store checks it as it checks every writer and its
//   outcome goes back as it is. No code here opens, writes or merges a canvas file.
// - With a shared remote (docs/remote.md) it syncs on a timer, so what another machine pushed
//   reaches the open pages; the sync is the store's own `syncWorkspace`, under the lock.
// - It is a writer, so it is guarded: 127.0.0.1 unless told otherwise, a secret printed once and
//   kept in an HttpOnly SameSite=Strict cookie, the Host and Origin checked, no CORS, JSON bodies
//   with a size limit, and a strict Content-Security-Policy.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { CanvasError } from '../model/canvas-error.js';
import { RefWatcher, type Workspace } from '../store/index.js';
import { LivePages } from './live-pages.js';
import { RemoteSync, SYNC_EVERY_MS } from './remote-sync.js';
import type { GuardOptions } from './request-guard.js';
import { serveApp, type WritesInFlight } from './serve-app.js';

/** Options of {@link serveCanvas}. */
export interface ServeOptions {
  /** The address to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** The port (default 4173; 0 for any free one). */
  port?: number | undefined;
  /** Who browser edits are authored as; null or absent: the pages only read. */
  author?: string | null | undefined;
  /** The secret; default 32 random bytes (tests pass their own). */
  token?: string | undefined;
  /** The watcher's fallback read of the refs, in ms (default 5000). */
  rescanMs?: number | undefined;
  /** How often to sync with the workspace's shared remote, in ms (default 10000; 0 never). */
  syncEveryMs?: number | undefined;
  /** The connection limits (default {@link SERVE_LIMITS}; tests pass shorter times). */
  limits?: Partial<ServeLimits> | undefined;
  /** The MCP endpoint to serve at `/mcp` (docs/mcp.md, "Over HTTP"); closed with the server. */
  mcp?: { fetch: (request: Request) => Promise<Response>; close: () => Promise<void> } | undefined;
}

/** What one connection may take (docs/serve.md, "Limits"), in milliseconds and connections. */
export interface ServeLimits {
  /** The request's headers must have arrived within this. */
  headersMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestMs: number;
  /** A connection with nothing sent either way for this long is closed (an event stream pings every 20 s). */
  idleMs: number;
  /** A kept-alive connection with no new request for this long is closed. */
  keepAliveMs: number;
  /** At most this many connections at once; one more is closed as soon as it opens. */
  connections: number;
}

/** How long a closing server gives a connection still answering before it is closed, in milliseconds. */
const CLOSE_GRACE_MS = 1000;

/** The limits `canvas serve` runs with (docs/serve.md, "Limits"). */
const SERVE_LIMITS: ServeLimits = { headersMs: 10_000, requestMs: 30_000, idleMs: 60_000, keepAliveMs: 5_000, connections: 128 };

/** A running server. */
export interface RunningServer {
  /** The URL to open, holding the secret once: `http://<host>:<port>/?token=<secret>`. */
  url: string;
  /** The server's origin, `http://<host>:<port>`. */
  origin: string;
  token: string;
  port: number;
  /**
   * Stop (docs/serve.md, "Stopping"): refuse new writes (`SERVER_STOPPING`), let the writes under
   * way finish and answer, then end every event stream, stop the watcher and close the listener.
   */
  close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new CanvasError('SERVE_UNAVAILABLE', `cannot listen on ${host}:${port}: ${e.code ?? e.message}`, e.code === 'EADDRINUSE' ? 'pass another --port, or --port 0' : 'pass --host 127.0.0.1', {
          host,
          port,
        }),
      ),
    );
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Start `canvas serve` on a workspace (docs/serve.md): bind, read the refs, watch them, and
 * sync with the workspace's shared remote on a timer when it has one.
 *
 * @param ws - the workspace
 * @param options - host, port, author, token, rescanMs, syncEveryMs
 * @returns the running server, once it listens
 * @throws CanvasError `SERVE_UNAVAILABLE` (the port is taken, the host is not this machine's)
 */
export async function serveCanvas(ws: Workspace, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(32).toString('base64url');
  const watcher = new RefWatcher(ws, { rescanMs: options.rescanMs });
  await watcher.start();
  const remote = new RemoteSync(ws, { everyMs: options.syncEveryMs ?? SYNC_EVERY_MS, moved: () => watcher.poke() });
  const streams = new Set<() => void>();
  const writes: WritesInFlight = { stopping: false, running: new Set() };
  const limits = { ...SERVE_LIMITS, ...options.limits };
  // Filled in once the port is known; until then no Host header can match it.
  const guard: GuardOptions = { host: '', origin: '', token, cookie: '', bearerPath: options.mcp === undefined ? undefined : '/mcp' };
  const app = serveApp({
    ws,
    author: options.author ?? null,
    guard,
    watcher,
    remote,
    pages: new LivePages(ws),
    track(end) {
      streams.add(end);
      return () => streams.delete(end);
    },
    writes,
    mcp: options.mcp?.fetch,
  });
  // Bound first, so port 0 is known; a request before the guard knows the port is refused. Node
  // checks the header and request times at the checking interval: a tenth of the shorter one.
  const server = serve({
    fetch: app.fetch,
    hostname: host,
    port: options.port ?? 4173,
    serverOptions: {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersMs, limits.requestMs) / 10))),
    },
  }) as Server;
  server.timeout = limits.idleMs;
  server.maxConnections = limits.connections;
  let port: number;
  try {
    port = await listen(server, host, options.port ?? 4173);
  } catch (e) {
    watcher.close();
    throw e;
  }
  remote.start();
  const named = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  Object.assign(guard, { host: named, origin: `http://${named}`, cookie: `canvas-token-${port}` });
  return {
    url: `http://${named}/?token=${token}`,
    origin: `http://${named}`,
    token,
    port,
    async close() {
      // The writes under way answer first; a write asked for meanwhile is refused.
      writes.stopping = true;
      while (writes.running.size > 0) await Promise.allSettled([...writes.running]);
      for (const end of streams) end();
      await options.mcp?.close();
      await remote.close();
      watcher.close();
      // Idle connections close now; one still writing its answer (a write that just finished)
      // gets a moment, then every connection is closed.
      await new Promise<void>((resolve) => {
        const late = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(late);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
