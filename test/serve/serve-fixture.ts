// A served workspace for the tests of canvas serve: one canvas made through the store, a server on
// a free loopback port with a known token, and a cookie jar for fetch (the cookie the token is
// exchanged for).
import { request } from 'node:http';
import { grantRole } from '../../src/store/write/access-writes.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type RunningServer, type ServeLimits, serveCanvas } from '../../src/serve/serve-canvas.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';

/** The token every test server is started with. */
export const TOKEN = 'test-token-0123456789';

export interface Served {
  ws: Workspace;
  server: RunningServer;
  /** The canvas `demo`: its section, text and question ids. */
  ids: { section: string; text: string; question: string };
  /** `canvas-token-<port>=<token>`, as the browser sends it. */
  cookie: string;
}

/** A workspace with canvas `demo` (a section holding a text, a question); agent is editor, cam commenter. */
export async function servedWorkspace(options: { author?: string | null; limits?: Partial<ServeLimits> } = {}): Promise<Served> {
  const ws = tempWorkspace('canvas-serve-');
  const o = await openCanvas(ws, { ledger: 'demo', problem: 'Pages go stale.', expectedValue: 'A live tab.', why: 'the task was opened', author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  const s = await insertNode(ws, { ledger: 'demo', into: 'root', payload: { section: 'Decided' }, base: o.revision, why: 'a place for what is settled', author: AUTHOR });
  if (s.outcome !== 'applied') throw new Error(JSON.stringify(s));
  const t = await insertNode(ws, { ledger: 'demo', into: s.node!, payload: { text: 'Serve the built pages.' }, base: s.revision, why: 'one renderer for both', author: AUTHOR });
  if (t.outcome !== 'applied') throw new Error(JSON.stringify(t));
  const q = await insertNode(ws, { ledger: 'demo', after: t.node!, payload: { question: 'Poll or watch?' }, base: t.revision, why: 'not decided', author: AUTHOR });
  if (q.outcome !== 'applied') throw new Error(JSON.stringify(q));
  for (const [who, role] of [
    ['agent', 'editor'],
    ['cam', 'commenter'],
  ] as const) {
    const g = await grantRole(ws, { ledger: 'demo', who, role, why: `${who} joins`, author: AUTHOR });
    if (g.outcome !== 'applied') throw new Error(JSON.stringify(g));
  }
  const server = await serveCanvas(ws, { port: 0, author: options.author === undefined ? AUTHOR : options.author, token: TOKEN, rescanMs: 60_000, limits: options.limits });
  return { ws, server, ids: { section: s.node!, text: t.node!, question: q.node! }, cookie: `canvas-token-${server.port}=${TOKEN}` };
}

/** The canvas's revision now. */
export async function revisionOf(ws: Workspace): Promise<string> {
  return (await readCanvas(ws, { ledger: 'demo' })).revision;
}

/** A raw HTTP request with exactly these headers (fetch will not send a foreign Host). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer = '',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An open event stream of a server: `next(event)` waits for the next event of that name and gives its data. */
export async function eventStream(server: RunningServer, cookie: string): Promise<{ next(event: string): Promise<unknown>; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${server.origin}/_events`, { headers: { cookie }, signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (event: string): Promise<unknown> => {
    for (;;) {
      const at = buffer.indexOf('\n\n');
      if (at >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name === event) return JSON.parse(data ?? 'null');
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
  return { next, close: () => controller.abort() };
}
