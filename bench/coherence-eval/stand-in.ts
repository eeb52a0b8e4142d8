// A stand-in model server on 127.0.0.1: it speaks the Chat Completions protocol
// (`POST /v1/chat/completions`, streaming off) well enough for the official `openai` SDK, and
// answers from a script instead of a model. The tests and the scripted mode of the evaluation
// use it (docs/coherence.md "Testing").
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received. */
export interface StandInRequest {
  headers: IncomingHttpHeaders;
  /** The JSON body: `model`, `messages`, `response_format`, ... */
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    stream?: boolean;
    [key: string]: unknown;
  };
}

/** What the stand-in answers to one request. */
export interface StandInAnswer {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** The assistant's text (a 200 answer); an object is sent as its JSON. */
  content?: string | object | null;
  /** `finish_reason` (default `stop`). */
  finish?: string;
  /** A raw body instead of a chat completion (errors, or garbage). */
  raw?: string;
  /** Answer only once this settles (a stalled model); the request may be abandoned meanwhile. */
  after?: Promise<unknown>;
}

/** A script: the answer to the n-th request (from 0). */
export type StandInScript = (req: StandInRequest, n: number) => StandInAnswer | Promise<StandInAnswer>;

/** A running stand-in. */
export interface StandIn {
  /** The base URL to give the SDK (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** Every request received, in order. */
  requests: StandInRequest[];
  /** Replace the script. */
  script: (s: StandInScript) => void;
  close: () => Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/**
 * Start a stand-in on 127.0.0.1 (a free port).
 *
 * @param script - the answers; a request to another path answers 404
 */
export async function startStandIn(script: StandInScript): Promise<StandIn> {
  let current = script;
  const requests: StandInRequest[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
        return;
      }
      let body: StandInRequest['body'];
      try {
        body = JSON.parse(data);
      } catch {
        send(res, 400, JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
        return;
      }
      const n = requests.length;
      const request = { headers: req.headers, body };
      requests.push(request);
      try {
        const a = await current(request, n);
        if (a.after) await a.after;
        if (a.raw !== undefined) {
          send(res, a.status ?? 200, a.raw, a.headers);
          return;
        }
        const status = a.status ?? 200;
        if (status !== 200) {
          send(res, status, JSON.stringify({ error: { message: `stand-in answers ${status}`, type: 'server_error' } }), a.headers);
          return;
        }
        const content = a.content === undefined ? '{"contradictions":[]}' : a.content === null ? null : typeof a.content === 'string' ? a.content : JSON.stringify(a.content);
        const promptChars = (body.messages ?? []).reduce((sum, m) => sum + String(m.content).length, 0);
        send(
          res,
          200,
          JSON.stringify({
            id: `chatcmpl-stand-in-${n}`,
            object: 'chat.completion',
            created: 0,
            model: body.model ?? 'stand-in',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: a.finish ?? 'stop' }],
            // The stand-in has no tokenizer: about four characters to a token.
            usage: { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil((content ?? '').length / 4), total_tokens: 0 },
          }),
          a.headers,
        );
      } catch (e) {
        send(res, 500, JSON.stringify({ error: { message: String(e), type: 'server_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (s) => {
      current = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The ids a canvas in a request's user message holds (`id="..."`), in document order. */
export function idsInRequest(req: StandInRequest): string[] {
  const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  return [...user.matchAll(/ id="([a-z][a-z0-9]{1,11})"/g)].map((m) => m[1]!);
}
