// A local stand-in for the Basecamp 3 comment endpoints (bc3-api README and sections/comments.md):
// it requires a User-Agent (400 without), a bearer token (401 otherwise) and a JSON content type
// (415 otherwise); it creates (201), reads (200) and updates (200) comments, answers 404 for a
// deleted one, replays scripted answers (429 with Retry-After, 503) before handling, and stores
// content the way Basecamp does: cleaned to the allowed tags (see basecamp-sanitizer.ts).
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basecampSanitize } from './basecamp-sanitizer.js';

export interface StoredComment {
  id: number;
  account: string;
  bucket: string;
  recording: string;
  content: string;
  status: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
  status: number;
}

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Never answer: hold the request until the client gives up and closes the connection (to make
   * a client time out). The server emits `held` with the request when it starts holding it, and
   * `abandoned` with it when the client has gone.
   */
  hold?: boolean;
}

const APP = 'https://3.basecamp.com';
const COMMENT = /^\/(\d+)(?:\/buckets\/(\d+))?\/comments\/(\d+)\.json$/;
const RECORDING_COMMENTS = /^\/(\d+)(?:\/buckets\/(\d+))?\/recordings\/(\d+)\/comments\.json$/;

export class FakeBasecamp {
  readonly comments = new Map<number, StoredComment>();
  readonly requests: SeenRequest[] = [];
  readonly script: Scripted[] = [];
  /** `held` and `abandoned` (see {@link Scripted.hold}), each with the {@link SeenRequest}. */
  readonly events = new EventEmitter();
  token = 'test-token-5ecr3t-abc123';
  /** The project the flat routes resolve to. */
  defaultBucket = '2085958504';
  #nextId = 1069479400;
  #server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      void this.#handle(req, res);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  /** Trash a comment on the "Basecamp side": reads and updates answer 404 from now on. */
  delete(id: number): void {
    this.comments.delete(id);
  }

  /** The requests that reached the endpoints (scripted answers included). */
  writes(): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'POST' || r.method === 'PUT');
  }

  #json(comment: StoredComment): string {
    const base = this.url;
    return JSON.stringify({
      id: comment.id,
      status: comment.status,
      type: 'Comment',
      url: `${base}/${comment.account}/buckets/${comment.bucket}/comments/${comment.id}.json`,
      app_url: `${APP}/${comment.account}/buckets/${comment.bucket}/todos/${comment.recording}#__recording_${comment.id}`,
      content: comment.content,
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const seen: SeenRequest = {
      method: req.method ?? '',
      path,
      userAgent: req.headers['user-agent'],
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
      status: 0,
    };
    this.requests.push(seen);
    const send = (status: number, text = '', headers: Record<string, string> = {}): void => {
      seen.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(text);
    };
    if (!seen.userAgent) return send(400, '{"error":"A User-Agent header is required"}');
    if (seen.authorization !== `Bearer ${this.token}`) return send(401, 'HTTP Token: Access denied.\n', { 'WWW-Authenticate': 'Bearer realm="Basecamp"' });
    const next = this.script.shift();
    if (next) {
      if (next.hold) {
        res.on('close', () => this.events.emit('abandoned', seen));
        this.events.emit('held', seen);
        return;
      }
      send(next.status, next.body ?? '', next.headers ?? {});
      return;
    }
    if ((req.method === 'POST' || req.method === 'PUT') && !/^application\/json\b/.test(seen.contentType ?? '')) return send(415);
    let content: string | undefined;
    if (req.method === 'POST' || req.method === 'PUT') {
      try {
        content = (JSON.parse(body) as { content?: unknown }).content as string | undefined;
      } catch {
        return send(400, '{"error":"Bad JSON"}');
      }
      if (typeof content !== 'string' || content === '') return send(422, '{"error":"content is required"}');
    }
    let m = RECORDING_COMMENTS.exec(path);
    if (m && req.method === 'POST') {
      const comment: StoredComment = {
        id: this.#nextId++,
        account: m[1]!,
        bucket: m[2] ?? this.defaultBucket,
        recording: m[3]!,
        content: basecampSanitize(content!),
        status: 'active',
      };
      this.comments.set(comment.id, comment);
      return send(201, this.#json(comment), { Location: `${APP}/${comment.account}/buckets/${comment.bucket}/todos/${comment.recording}` });
    }
    m = COMMENT.exec(path);
    if (m) {
      const comment = this.comments.get(Number(m[3]));
      if (!comment || comment.account !== m[1] || (m[2] !== undefined && comment.bucket !== m[2])) return send(404, '{"status":404,"error":"Not Found"}');
      if (req.method === 'GET') return send(200, this.#json(comment));
      if (req.method === 'PUT') {
        comment.content = basecampSanitize(content!);
        return send(200, this.#json(comment));
      }
    }
    return send(404, '{"status":404,"error":"Not Found"}');
  }
}
