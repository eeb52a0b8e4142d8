import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanvasError } from '../../src/model/canvas-error.js';
import { BasecampClient, type BasecampClientOptions } from '../../src/publish/basecamp-client.js';
import { FakeBasecamp, type SeenRequest } from './helpers/basecamp-server.js';
import { fakeClock } from './helpers/fake-clock.js';
import { canvasErrorOf } from '../helpers/canvas-error-of.js';

const UA = 'canvas-tests (tests@example.com)';
const TODO = { account: '195539477', bucket: '2085958504', id: '1069479338' };

let server: FakeBasecamp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  server = await new FakeBasecamp().start();
  clock = fakeClock();
});
afterEach(async () => {
  await server.stop();
});

function client(options: Partial<BasecampClientOptions> = {}): BasecampClient {
  return new BasecampClient({ apiUrl: server.url, token: server.token, userAgent: UA, clock, ...options });
}

function shown(e: CanvasError): string {
  return JSON.stringify({ message: e.message, hint: e.hint, data: e.data, stack: e.stack });
}

describe('BasecampClient against the local Basecamp', () => {
  it('creates on the to-do, then updates the same comment; Basecamp stores exactly what was sent', async () => {
    const c = client();
    const created = await c.createComment(TODO, '<div>one</div>');
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`POST /195539477/buckets/2085958504/recordings/1069479338/comments.json 201`]);
    const ref = { account: TODO.account, bucket: TODO.bucket, id: created.id };
    const updated = await c.updateComment(ref, '<div>two</div>');
    expect(updated.id).toBe(created.id);
    expect(server.comments.size).toBe(1);
    expect(server.comments.get(Number(created.id))?.content).toBe('<div>two</div>');
    expect(updated.appUrl).toBe(`https://3.basecamp.com/195539477/buckets/2085958504/todos/1069479338#__recording_${created.id}`);
    const seen = server.requests[1]!;
    expect(seen.method).toBe('PUT');
    expect(seen.path).toBe(`/195539477/buckets/2085958504/comments/${created.id}.json`);
    expect(seen.userAgent).toBe(UA);
    expect(seen.authorization).toBe(`Bearer ${server.token}`);
    expect(seen.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(seen.body)).toEqual({ content: '<div>two</div>' });
  });

  it('uses the flat routes when the project is not known', async () => {
    const c = client();
    const created = await c.createComment({ ...TODO, bucket: null }, '<div>x</div>');
    await c.updateComment({ account: TODO.account, bucket: null, id: created.id }, '<div>y</div>');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /195539477/recordings/1069479338/comments.json`, `PUT /195539477/comments/${created.id}.json`]);
  });

  it('the local Basecamp refuses a request without User-Agent (400) and strips what it does not allow', async () => {
    const res = await fetch(`${server.url}/1/buckets/2/recordings/3/comments.json`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', 'User-Agent': '' },
      body: '{"content":"<div>x</div>"}',
    });
    expect(res.status).toBe(400);
    const created = await client().createComment(TODO, '<p onclick="x">a<script>b</script><a href="javascript:c">d</a></p>');
    expect(server.comments.get(Number(created.id))?.content).toBe('a<a>d</a>');
  });

  it('waits out a 429 for its Retry-After, then succeeds', async () => {
    server.script.push({ status: 429, headers: { 'Retry-After': '7' } });
    const created = await client().createComment(TODO, '<div>x</div>');
    expect(clock.sleeps).toEqual([7000]);
    expect(server.comments.has(Number(created.id))).toBe(true);
    expect(server.writes().map((r) => r.status)).toEqual([429, 201]);
  });

  it('gives up at once when Retry-After asks for more than the cap', async () => {
    server.script.push({ status: 429, headers: { 'Retry-After': '3600' } });
    const e = await canvasErrorOf(client({ maxRetryAfterMs: 60_000 }).createComment(TODO, '<div>x</div>'));
    expect(e.code).toBe('PUBLISH_FAILED');
    expect(e.data.retryAfterMs).toBe(3_600_000);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries a 503 twice with exponential back-off, then succeeds', async () => {
    const c = client();
    const created = await c.createComment(TODO, '<div>x</div>');
    server.script.push({ status: 503 }, { status: 503 });
    const updated = await c.updateComment({ ...TODO, id: created.id }, '<div>y</div>');
    expect(updated.id).toBe(created.id);
    expect(clock.sleeps).toEqual([1000, 2000]);
    expect(server.writes().map((r) => r.status)).toEqual([201, 503, 503, 200]);
  });

  it('stops retrying when the time budget is spent', async () => {
    for (let i = 0; i < 20; i++) server.script.push({ status: 502 });
    const e = await canvasErrorOf(client({ budgetMs: 10_000 }).updateComment({ ...TODO, id: '5' }, '<div>y</div>'));
    expect(e.code).toBe('PUBLISH_FAILED');
    expect(e.data.status).toBe(502);
    expect(clock.sleeps).toEqual([1000, 2000, 4000]);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
  });

  it('never repeats a create that Basecamp may have processed (500)', async () => {
    server.script.push({ status: 500 });
    const e = await canvasErrorOf(client().createComment(TODO, '<div>x</div>'));
    expect(e.code).toBe('PUBLISH_FAILED');
    expect(e.message).toMatch(/may or may not have been created/);
    expect(server.writes()).toHaveLength(1);
  });

  it('retries an update that timed out', async () => {
    const c = client({ timeoutMs: 5_000 });
    const created = await c.createComment(TODO, '<div>x</div>');
    server.script.push({ status: 200, hold: true });
    const held = once(server.events, 'held');
    const abandoned = once(server.events, 'abandoned');
    const updating = c.updateComment({ ...TODO, id: created.id }, '<div>y</div>');
    const [request] = (await held) as [SeenRequest];
    expect(clock.timeouts.map((t) => t.ms)).toEqual([5_000, 5_000]);
    expect(clock.timeouts[1]!.signal.aborted).toBe(false);
    clock.advance(4_999);
    expect(clock.timeouts[1]!.signal.aborted).toBe(false);
    clock.advance(1);
    expect(clock.timeouts[1]!.signal.aborted).toBe(true);
    await abandoned;
    await updating;
    expect(request.status).toBe(0);
    expect(server.comments.get(Number(created.id))?.content).toBe('<div>y</div>');
    expect(clock.sleeps).toEqual([1000]);
    expect(server.writes().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'PUT 0', 'PUT 200']);
  });

  it('reports a create that timed out as maybe created, and does not repeat it', async () => {
    server.script.push({ status: 201, hold: true });
    const held = once(server.events, 'held');
    const creating = canvasErrorOf(client().createComment(TODO, '<div>x</div>'));
    await held;
    clock.advance(30_000);
    const e = await creating;
    expect(e.code).toBe('PUBLISH_FAILED');
    expect(e.message).toMatch(/within 30 s.*may or may not have been created/);
    expect(clock.sleeps).toEqual([]);
    expect(server.writes()).toHaveLength(1);
  });

  it('reports a bad token (401) clearly, without the token', async () => {
    const e = await canvasErrorOf(client({ token: 'wrong-Secret-Token-xyz' }).createComment(TODO, '<div>x</div>'));
    expect(e.code).toBe('PUBLISH_AUTH');
    expect(e.data.status).toBe(401);
    expect(e.hint).toMatch(/BASECAMP_ACCESS_TOKEN/);
    expect(shown(e)).not.toContain('wrong-Secret-Token-xyz');
  });

  it('reports a forbidden comment (403) as an authorization problem', async () => {
    server.script.push({ status: 403 });
    const e = await canvasErrorOf(client().updateComment({ ...TODO, id: '9' }, '<div>x</div>'));
    expect(e.code).toBe('PUBLISH_AUTH');
    expect(e.data.status).toBe(403);
  });

  it('reports a deleted comment (404) and creates nothing; a read answers null', async () => {
    const c = client();
    const created = await c.createComment(TODO, '<div>x</div>');
    server.delete(Number(created.id));
    const e = await canvasErrorOf(c.updateComment({ ...TODO, id: created.id }, '<div>y</div>'));
    expect(e.code).toBe('PUBLISH_NOT_FOUND');
    expect(await c.getComment({ ...TODO, id: created.id })).toBeNull();
    expect(server.writes().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('names an inactive account from the Reason header', async () => {
    server.script.push({ status: 404, headers: { Reason: 'Account Inactive' } });
    const e = await canvasErrorOf(client().getComment({ ...TODO, id: '9' }));
    expect(e.code).toBe('PUBLISH_NOT_FOUND');
    expect(e.data.reason).toBe('Account Inactive');
  });

  it('does not follow a redirect with the token', async () => {
    server.script.push({ status: 302, headers: { Location: 'http://127.0.0.1:9/steal' } });
    const e = await canvasErrorOf(client().updateComment({ ...TODO, id: '9' }, '<div>x</div>'));
    expect(e.code).toBe('PUBLISH_FAILED');
    expect(e.data.status).toBe(302);
  });
});
