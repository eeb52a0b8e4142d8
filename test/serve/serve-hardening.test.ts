// canvas serve as a long-lived server that strangers may reach (docs/serve.md, "Security",
// "Limits", "Stopping"): the token exchange redirects to a path of this server only, a body that
// is not UTF-8 is refused, no request prints a stack trace, slow and idle connections are closed,
// connections are capped, and stopping lets the writes under way answer while refusing new ones.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { canvasLog } from '../../src/store/read/canvas-log.js';
import { onWriteStep } from '../../src/store/repo/write-steps.js';
import { bundleScript } from '../helpers/bundle-script.js';
import { repoState } from '../helpers/workspace.js';
import { rawRequest, revisionOf, type Served, servedWorkspace, TOKEN } from './serve-fixture.js';

let s: Served;

beforeAll(async () => {
  s = await servedWorkspace({ limits: { headersMs: 300, requestMs: 600, idleMs: 2000 } });
});
afterAll(async () => {
  await s.server.close();
});

const host = () => `127.0.0.1:${s.server.port}`;
const post = (path: string, body: string | Buffer) => rawRequest(s.server.port, 'POST', path, { host: host(), cookie: s.cookie, origin: s.server.origin, 'content-type': 'application/json' }, body);

/** A raw connection to the server, and a promise that settles when the server closes it. */
function open(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (b) => (answer += b.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  return { socket, closed };
}

describe('the token exchange', () => {
  it('redirects only to a path of this server, and refuses a path holding CR or LF with a code and no stack trace', async () => {
    const err = vi.spyOn(process.stderr, 'write');
    try {
      const off = await rawRequest(s.server.port, 'GET', `//evil.example/?token=${TOKEN}`, { host: host() });
      expect(off.status).toBe(303);
      expect(off.headers.location).toBe('/evil.example/');
      const many = await rawRequest(s.server.port, 'GET', `///evil.example/x?token=${TOKEN}`, { host: host() });
      expect(many.headers.location).toBe('/evil.example/x');
      const ok = await rawRequest(s.server.port, 'GET', `/demo/?token=${TOKEN}`, { host: host() });
      expect(ok.headers.location).toBe('/demo/');
      for (const path of [`/%0d%0aX:y?token=${TOKEN}`, `/a%0Ab?token=${TOKEN}`]) {
        const split = await rawRequest(s.server.port, 'GET', path, { host: host() });
        expect(split.status, path).toBe(400);
        expect(JSON.parse(split.body).error).toMatchObject({ code: 'SERVE_BAD_REQUEST', data: { rule: 'path' } });
        expect(split.headers.x).toBeUndefined();
      }
      expect(err.mock.calls.map((c) => String(c[0])).join('')).not.toMatch(/\n\s+at /);
    } finally {
      err.mockRestore();
    }
  });
});

describe('a write whose body is not UTF-8', () => {
  it('is BAD_ENCODING (400), never written as U+FFFD', async () => {
    const before = repoState(s.ws);
    const base = await revisionOf(s.ws);
    const json = JSON.stringify({ op: 'replace', id: s.ids.text, base, why: 'bytes', node: { type: 'text', text: 'A__B' } });
    const body = Buffer.concat([Buffer.from(json.slice(0, json.indexOf('__'))), Buffer.from([0xc3, 0x28]), Buffer.from(json.slice(json.indexOf('__') + 2))]);
    const r = await post('/demo/_write', body);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'BAD_ENCODING' });
    expect(repoState(s.ws)).toEqual(before);
  });
});

describe('connections (docs/serve.md, "Limits")', () => {
  it('closes a connection whose headers never finish, one whose body never finishes, and one that sends nothing', async () => {
    const slowHeaders = open(s.server.port);
    slowHeaders.socket.write(`GET /demo/ HTTP/1.1\r\nHost: ${host()}\r\n`);
    const slowBody = open(s.server.port);
    slowBody.socket.write(`POST /demo/_write HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${s.cookie}\r\nOrigin: ${s.server.origin}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"op":`);
    const idle = open(s.server.port);
    await slowHeaders.closed;
    expect(await slowBody.closed).toMatch(/^HTTP\/1\.1 408 /);
    await idle.closed;
  });

  it('takes at most its cap of connections at once: one more is closed at once, the others stay open', async () => {
    // A server of its own, with the default times: the held connections outlive the test.
    const capped = await servedWorkspace({ limits: { connections: 4 } });
    const held = Array.from({ length: 4 }, () => open(capped.server.port));
    await Promise.all(held.map((h) => new Promise((resolve) => h.socket.once('connect', resolve))));
    // Each held connection has started a request, so the server counts it before the next opens.
    for (const h of held) h.socket.write('GET /demo/ HTTP/1.1\r\n');
    const extra = open(capped.server.port);
    await extra.closed;
    expect(held.every((h) => !h.socket.destroyed)).toBe(true);
    for (const h of held) h.socket.destroy();
    await capped.server.close();
  });
});

describe('stopping (docs/serve.md, "Stopping")', () => {
  it('lets the write under way finish and answer, refuses a new one with SERVER_STOPPING, then closes', async () => {
    const t = await servedWorkspace();
    const base = await revisionOf(t.ws);
    const at = `127.0.0.1:${t.server.port}`;
    const headers = { host: at, cookie: t.cookie, origin: t.server.origin, 'content-type': 'application/json' };
    let release: () => void = () => {};
    let reached: () => void = () => {};
    const atCommit = new Promise<void>((resolve) => (reached = resolve));
    const stop = onWriteStep((e) => {
      if (e.step !== 'commit') return;
      reached();
      return new Promise<void>((resolve) => (release = resolve));
    });
    try {
      const first = rawRequest(t.server.port, 'POST', '/demo/_write', headers, JSON.stringify({ op: 'replace', id: t.ids.text, base, why: 'under way', node: { type: 'text', text: 'Finished.' } }));
      await atCommit;
      const closed = t.server.close();
      const second = await rawRequest(
        t.server.port,
        'POST',
        '/demo/_write',
        headers,
        JSON.stringify({ op: 'replace', id: t.ids.question, base, why: 'too late', node: { type: 'question', text: 'Never?', answered: false } }),
      );
      expect(second.status).toBe(503);
      expect(JSON.parse(second.body).error).toMatchObject({ code: 'SERVER_STOPPING' });
      release();
      const answered = await first;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ outcome: 'applied' });
      await closed;
      expect(await revisionOf(t.ws)).toBe(JSON.parse(answered.body).revision);
    } finally {
      stop();
    }
  });

  it('as a process on SIGTERM: the write under way answers, a new one gets SERVER_STOPPING, then it exits 0', async () => {
    const p = await serveProcess();
    try {
      const first = p.write(p.t.ids.text, 'under way when stopped', { type: 'text', text: 'Finished.' });
      await p.atCommit;
      p.child.kill('SIGTERM');
      await p.told;
      const second = await p.write(p.t.ids.question, 'too late', { type: 'question', text: 'Never?', answered: false });
      expect(second.status).toBe(503);
      expect(JSON.parse(second.body).error).toMatchObject({ code: 'SERVER_STOPPING' });
      p.control.write('g');
      const answered = await first;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ outcome: 'applied' });
      expect(await p.exited).toEqual({ code: 0, signal: null });
      expect(await revisionOf(p.t.ws)).toBe(JSON.parse(answered.body).revision);
      const log = JSON.stringify(await canvasLog(p.t.ws, { ledger: 'demo' }));
      expect(log).toContain('under way when stopped');
      expect(log).not.toContain('too late');
    } finally {
      p.fixture.remove();
    }
  });

  it('as a process, a second signal of either kind while it stops ends it at once (143 for SIGTERM)', async () => {
    const p = await serveProcess();
    try {
      const base = await revisionOf(p.t.ws);
      const first = p.write(p.t.ids.text, 'held at its commit', { type: 'text', text: 'Never applied.' }).catch(() => null);
      await p.atCommit;
      p.child.kill('SIGINT');
      await p.told;
      p.child.kill('SIGTERM');
      expect(await p.exited).toEqual({ code: 143, signal: null });
      expect(p.stderr()).toContain('stopped at once by a second signal (SIGTERM)');
      await first;
      // Held before its ref update: nothing was applied.
      expect(await revisionOf(p.t.ws)).toBe(base);
    } finally {
      p.fixture.remove();
    }
  });
});

/**
 * `canvas serve` as a process (the CLI's entry, its writes held at their point of no return until
 * the test writes a byte to `control`), on a served workspace of its own, listening.
 */
async function serveProcess() {
  const fixture = await bundleScript('test/cli/fixtures/paused-at-commit.ts', { splitting: true });
  const t = await servedWorkspace();
  await t.server.close();
  const base = await revisionOf(t.ws);
  const child = spawn(process.execPath, [fixture.path, 'serve', '--port', '0', '--json', '--workspace', t.ws.root], {
    env: { ...process.env, CANVAS_AUTHOR: 'leo | by-hand', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const control = child.stdio[3] as Readable & Writable;
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (b) => (stderr += b));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const listening = await new Promise<{ url: string; origin: string; port: number }>((resolve) =>
    child.stdout!.on('data', (b) => {
      stdout += b;
      if (stdout.endsWith('\n')) resolve(JSON.parse(stdout));
    }),
  );
  const token = new URL(listening.url).searchParams.get('token');
  const headers = { host: `127.0.0.1:${listening.port}`, cookie: `canvas-token-${listening.port}=${token}`, origin: listening.origin, 'content-type': 'application/json' };
  const write = (id: string, why: string, node: Record<string, unknown>) => rawRequest(listening.port, 'POST', '/demo/_write', headers, JSON.stringify({ op: 'replace', id, base, why, node }));
  // The first write to reach its commit, and the server saying it stops.
  const atCommit = new Promise<void>((resolve) => control.once('data', () => resolve()));
  const told = new Promise<void>((resolve) => child.stderr!.on('data', () => stderr.includes('stopping') && resolve()));
  return { fixture, t, child, control, exited, write, atCommit, told, stderr: () => stderr };
}
