// One piece: the Basecamp client is one class whose requests share one retry loop, one time
// budget and one clock (docs/basecamp.md, "Talking to Basecamp"); its methods are a few lines
// each around that loop.
import { CanvasError } from '../model/canvas-error.js';
import type { Clock } from '../model/clock.js';
import { parseRetryAfter } from '../model/parse-retry-after.js';

/** Where a comment lives: its account, its project (bucket, when known) and its id. */
export interface CommentRef {
  account: string;
  /** The project; `null` uses Basecamp's flat routes (`/{account}/comments/{id}.json`). */
  bucket: string | null;
  id: string;
}

/** A recording a comment is made on (the row's to-do): same shape as {@link CommentRef}. */
export type RecordingRef = CommentRef;

/** What Basecamp answers for a comment (the fields the publisher uses). */
export interface BasecampComment {
  id: string;
  /** The API URL of the comment. */
  url: string;
  /** The URL a person opens. */
  appUrl: string;
  /** The rich text as Basecamp stored it. */
  content: string;
  /** `active`, `archived` or `trashed`. */
  status: string;
}

/** How the client talks to Basecamp. */
export interface BasecampClientOptions {
  /** The API root, without the account: `https://3.basecampapi.com` (or a test server). */
  apiUrl: string;
  /** The OAuth bearer token. Never printed. */
  token: string;
  /** The `User-Agent` Basecamp requires: the application's name and a contact. */
  userAgent: string;
  /** The fetch to use (default: Node's global fetch). */
  fetch?: typeof fetch;
  /** The clock (default: real time, a request's timeout by `AbortSignal.timeout`). */
  clock?: Clock;
  /** Timeout of one request, in ms (default 30000). */
  timeoutMs?: number;
  /** Total time for one call including every retry and wait, in ms (default 120000). */
  budgetMs?: number;
  /** The longest single `Retry-After` wait accepted, in ms (default 60000). */
  maxRetryAfterMs?: number;
  /** The first back-off after a 5xx or network error, in ms; doubles each time up to 30000 (default 1000). */
  backoffMs?: number;
}

const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeout: (ms) => AbortSignal.timeout(ms),
};

interface Call {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  /** What the call is about, for messages: "comment 12", "to-do 34". */
  what: string;
  /** Whether repeating the call is harmless (GET, PUT); a POST is retried only when it was surely not processed. */
  idempotent: boolean;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * A small Basecamp 3 API client for comments (bc3-api `sections/comments.md`): create on a
 * recording, update in place, read. HTTPS with a bearer token and the required `User-Agent`;
 * a 429 waits its `Retry-After` (capped), a 5xx or a network error is retried with exponential
 * back-off, all within one time budget. The token is never put in a message.
 */
export class BasecampClient {
  readonly #options: Required<Omit<BasecampClientOptions, 'fetch' | 'clock'>>;
  readonly #fetch: typeof fetch;
  readonly #clock: Clock;

  constructor(options: BasecampClientOptions) {
    this.#options = {
      apiUrl: options.apiUrl.replace(/\/+$/, ''),
      token: options.token,
      userAgent: options.userAgent,
      timeoutMs: options.timeoutMs ?? 30_000,
      budgetMs: options.budgetMs ?? 120_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      backoffMs: options.backoffMs ?? 1_000,
    };
    this.#fetch = options.fetch ?? fetch;
    this.#clock = options.clock ?? REAL_CLOCK;
  }

  /** The path of a comment: `/{account}[/buckets/{bucket}]/comments/{id}.json`. */
  static commentPath(ref: CommentRef): string {
    return `/${ref.account}${ref.bucket ? `/buckets/${ref.bucket}` : ''}/comments/${ref.id}.json`;
  }

  /** The path to comment on a recording: `/{account}[/buckets/{bucket}]/recordings/{id}/comments.json`. */
  static recordingCommentsPath(ref: RecordingRef): string {
    return `/${ref.account}${ref.bucket ? `/buckets/${ref.bucket}` : ''}/recordings/${ref.id}/comments.json`;
  }

  /**
   * Create a comment on a recording: `POST .../recordings/{id}/comments.json` with `{content}`.
   * Retried only on 429, 503 or a refused connection, when Basecamp surely did not create it.
   *
   * @param recording - the to-do (or any recording) to comment on
   * @param html - the rich text
   * @returns the comment Basecamp created (201)
   * @throws CanvasError `PUBLISH_AUTH` (401/403), `PUBLISH_NOT_FOUND` (404), `PUBLISH_FAILED`
   */
  createComment(recording: RecordingRef, html: string): Promise<BasecampComment> {
    return this.#comment({
      method: 'POST',
      path: BasecampClient.recordingCommentsPath(recording),
      body: { content: html },
      what: `to-do ${recording.id}`,
      idempotent: false,
    });
  }

  /**
   * Replace a comment's content: `PUT .../comments/{id}.json` with `{content}`.
   *
   * @param comment - the comment
   * @param html - the rich text
   * @returns the comment as Basecamp now has it (200)
   * @throws CanvasError `PUBLISH_AUTH` (401/403), `PUBLISH_NOT_FOUND` (404), `PUBLISH_FAILED`
   */
  updateComment(comment: CommentRef, html: string): Promise<BasecampComment> {
    return this.#comment({
      method: 'PUT',
      path: BasecampClient.commentPath(comment),
      body: { content: html },
      what: `comment ${comment.id}`,
      idempotent: true,
    });
  }

  /**
   * Read a comment: `GET .../comments/{id}.json`.
   *
   * @param comment - the comment
   * @returns the comment, or `null` when Basecamp answers 404
   * @throws CanvasError `PUBLISH_AUTH` (401/403), `PUBLISH_FAILED`
   */
  async getComment(comment: CommentRef): Promise<BasecampComment | null> {
    try {
      return await this.#comment({ method: 'GET', path: BasecampClient.commentPath(comment), what: `comment ${comment.id}`, idempotent: true });
    } catch (e) {
      if (e instanceof CanvasError && e.code === 'PUBLISH_NOT_FOUND' && e.data.reason === undefined) return null;
      throw e;
    }
  }

  async #comment(call: Call): Promise<BasecampComment> {
    const json = await this.#request(call);
    const o = (json ?? {}) as Record<string, unknown>;
    const id = o.id;
    if ((typeof id !== 'number' && typeof id !== 'string') || !/^[0-9]+$/.test(String(id))) {
      throw this.#failed(call, `Basecamp answered ${call.method} ${call.path} without a comment id`, {});
    }
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    return { id: String(id), url: str(o.url), appUrl: str(o.app_url), content: str(o.content), status: str(o.status) || 'active' };
  }

  #redact(text: string): string {
    return this.#options.token ? text.split(this.#options.token).join('[token]') : text;
  }

  #failed(call: Call, message: string, data: Record<string, unknown>, hint?: string): CanvasError {
    return new CanvasError('PUBLISH_FAILED', this.#redact(message), hint ?? (call.idempotent ? 'run the same command again later; repeating an update is safe' : 'run the same command again later'), {
      method: call.method,
      path: call.path,
      ...data,
    });
  }

  /** Basecamp may have created the comment although no answer said so: never retried blindly. */
  #maybeCreated(call: Call, why: string, data: Record<string, unknown>): CanvasError {
    return this.#failed(
      call,
      `${why}; the comment on ${call.what} may or may not have been created`,
      data,
      `look at ${call.what}'s comments on Basecamp first: if the comment is there, publish with --comment <its id>; if not, run the same command again`,
    );
  }

  async #request(call: Call): Promise<unknown> {
    const o = this.#options;
    const started = this.#clock.now();
    let backoff = o.backoffMs;
    let attempts = 0;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${o.token}`,
      'User-Agent': o.userAgent,
      Accept: 'application/json',
    };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
    const url = `${o.apiUrl}${call.path}`;
    const wait = async (ms: number, why: string, data: Record<string, unknown>): Promise<void> => {
      const spent = this.#clock.now() - started;
      if (spent + ms > o.budgetMs) {
        throw this.#failed(call, `${why}; gave up after ${attempts} attempts in ${seconds(spent)} (the budget is ${seconds(o.budgetMs)})`, {
          attempts,
          ...data,
        });
      }
      await this.#clock.sleep(ms);
    };
    for (;;) {
      attempts += 1;
      let res: Response;
      try {
        res = await this.#fetch(url, {
          method: call.method,
          headers,
          ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
          redirect: 'manual',
          signal: this.#clock.timeout ? this.#clock.timeout(o.timeoutMs) : AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        const err = e as Error & { cause?: { code?: string } };
        const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
        const why = timedOut ? `Basecamp did not answer ${call.method} ${call.path} within ${seconds(o.timeoutMs)}` : `cannot reach ${o.apiUrl}: ${err.cause?.code ?? err.message}`;
        if (!call.idempotent && err.cause?.code !== 'ECONNREFUSED') throw this.#maybeCreated(call, why, { attempts });
        await wait(backoff, why, {});
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      if (res.status >= 200 && res.status < 300) {
        const body = await res.text();
        try {
          return body === '' ? {} : JSON.parse(body);
        } catch {
          throw this.#failed(call, `Basecamp answered ${call.method} ${call.path} with ${res.status} and a body that is not JSON`, { status: res.status });
        }
      }
      const detail = this.#redact((await res.text().catch(() => '')).slice(0, 300).trim());
      const said = detail ? `: ${detail}` : '';
      if (res.status === 429) {
        const after = parseRetryAfter(res.headers.get('retry-after'), Date.now());
        const ms = after ?? backoff;
        if (after !== null && after > o.maxRetryAfterMs) {
          throw this.#failed(call, `Basecamp is rate limiting this client and asks to wait ${seconds(after)}, more than the ${seconds(o.maxRetryAfterMs)} accepted`, {
            status: 429,
            retryAfterMs: after,
          });
        }
        await wait(ms, `Basecamp kept rate limiting ${call.method} ${call.path} (429)`, { status: 429, retryAfterMs: ms });
        if (after === null) backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      if (res.status >= 500) {
        const why = `Basecamp answered ${call.method} ${call.path} with ${res.status}${said}`;
        if (!call.idempotent && res.status !== 503) throw this.#maybeCreated(call, why, { status: res.status, attempts });
        await wait(backoff, why, { status: res.status });
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      if (res.status === 401) {
        throw new CanvasError(
          'PUBLISH_AUTH',
          `Basecamp refused the access token (401) for ${call.what}: it is missing, expired or revoked`,
          'get a fresh OAuth access token and export it as BASECAMP_ACCESS_TOKEN',
          { status: 401, method: call.method, path: call.path },
        );
      }
      if (res.status === 403) {
        throw new CanvasError(
          'PUBLISH_AUTH',
          `Basecamp forbids this token's person to ${call.method === 'GET' ? 'read' : 'change'} ${call.what} (403)`,
          "publish with the token of the person who created the row's comment, or one whose role lets them edit it",
          { status: 403, method: call.method, path: call.path },
        );
      }
      if (res.status === 404) {
        const reason = res.headers.get('reason');
        throw new CanvasError(
          'PUBLISH_NOT_FOUND',
          reason ? `Basecamp answered 404 for ${call.what}: ${reason}` : `Basecamp has no ${call.what} at ${call.path} (404): it was deleted or trashed, or this token's person cannot see it`,
          reason ? 'the Basecamp account cannot be used (check its billing or status)' : 'check the ids; nothing was created in its place',
          { status: 404, method: call.method, path: call.path, ...(reason ? { reason } : {}) },
        );
      }
      if (res.status >= 300 && res.status < 400) {
        throw this.#failed(
          call,
          `Basecamp answered ${call.method} ${call.path} with a redirect (${res.status}); the token is not sent to another address`,
          { status: res.status },
          'check BASECAMP_API_URL: it must be the API root itself',
        );
      }
      throw this.#failed(call, `Basecamp refused ${call.method} ${call.path} with ${res.status}${said}`, { status: res.status }, 'this is likely a bug in the publisher; report it with the message');
    }
  }
}
