import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { composeCommentHtml } from '../../src/publish/compose-comment-html.js';
import { markdownToBasecampHtml } from '../../src/publish/markdown-to-basecamp.js';
import { type PublishOptions, publishComment } from '../../src/publish/publish-comment.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';
import { FakeBasecamp } from './helpers/basecamp-server.js';
import { fakeClock } from './helpers/fake-clock.js';
import { canvasErrorOf } from '../helpers/canvas-error-of.js';

const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures', 'plain-canvas.md'), 'utf8');
const ROW = '**Status:** executing\nRun: run-8842\n\n* next: verify on staging\n';
const TODO = 'https://3.basecamp.com/195539477/buckets/2085958504/todos/1069479338';

/** Stands in for renderComment: the fixture, carrying the snapshot's revision. */
function render(s: Snapshot): string {
  return FIXTURE.replace(/^Canvas-Base: .*$/m, `Canvas-Base: ${s.revision}`);
}

let server: FakeBasecamp;
let ws: Workspace;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  server = await new FakeBasecamp().start();
  ws = tempWorkspace();
  clock = fakeClock();
});
afterEach(async () => {
  await server.stop();
});

function env(): NodeJS.ProcessEnv {
  return { BASECAMP_ACCESS_TOKEN: server.token, BASECAMP_API_URL: server.url, BASECAMP_CONTACT: 'tests@example.com' };
}

function publish(extra: Partial<PublishOptions> = {}): ReturnType<typeof publishComment> {
  return publishComment(ws, { ledger: 'fix-login-3', rowBody: ROW, env: env(), renderComment: render, http: { clock }, ...extra });
}

async function open(): Promise<void> {
  const o = await openCanvas(ws, { ledger: 'fix-login-3', problem: 'Logins fail.', expectedValue: 'Every address logs in.', why: 'the task starts', author: AUTHOR });
  expect(o.outcome).toBe('applied');
}

async function edit(text: string): Promise<void> {
  const o = await insertNode(ws, { ledger: 'fix-login-3', into: 'root', payload: { text }, why: 'a new fact', author: AUTHOR, require: undefined, base: await revision() });
  expect(o.outcome).toBe('applied');
}

async function revision(): Promise<string> {
  const r = await publishComment(ws, { ledger: 'fix-login-3', rowBody: ROW, dryRun: true, renderComment: render });
  return r.revision!;
}

function record(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ws.root, 'state', 'publish', 'fix-login-3.json'), 'utf8'));
}

describe('publishComment', () => {
  it('creates the comment at the first publish, then updates the same one; unchanged sends nothing', async () => {
    await open();
    const first = await publish({ target: { recording: TODO } });
    expect(first.outcome).toBe('created');
    const id = first.comment!.id;
    expect(first.comment).toMatchObject({ account: '195539477', bucket: '2085958504', recording: '1069479338' });
    expect(first.comment!.appUrl).toContain(`#__recording_${id}`);
    expect(first.revision).toMatch(/^[0-9a-f]{40}$/);
    const stored = server.comments.get(Number(id))!.content;
    expect(stored).toBe(composeCommentHtml(ROW, render({ revision: first.revision } as Snapshot)));

    const again = await publish({ target: { recording: TODO } });
    expect(again).toMatchObject({ outcome: 'unchanged', revision: first.revision, comment: { id } });
    expect(server.writes()).toHaveLength(1);

    await edit('We ship behind a flag.');
    const third = await publish();
    expect(third.outcome).toBe('updated');
    expect(third.comment!.id).toBe(id);
    expect(third.revision).not.toBe(first.revision);
    expect(server.comments.size).toBe(1);
    expect(server.writes().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'PUT 200']);
    expect(server.comments.get(Number(id))!.content).toContain(third.revision!);
    expect(record()).toMatchObject({ version: 1, ledger: 'fix-login-3', revision: third.revision, comment: { id } });
  });

  it('puts the row body first, byte for byte, and sends HTML Basecamp keeps unchanged', async () => {
    await open();
    const r = await publish({ target: { recording: TODO } });
    const sent = JSON.parse(server.writes()[0]!.body).content as string;
    expect(sent.startsWith(markdownToBasecampHtml(ROW))).toBe(true);
    expect(server.comments.get(Number(r.comment!.id))!.content).toBe(sent);
  });

  it('publishes the row body alone when the task has no canvas', async () => {
    const r = await publish({ target: { recording: TODO } });
    expect(r.outcome).toBe('created');
    expect(r.revision).toBeNull();
    expect(server.comments.get(Number(r.comment!.id))!.content).toBe(markdownToBasecampHtml(ROW));
  });

  it('refuses without the row body, and with an empty one, sending nothing', async () => {
    await open();
    expect((await canvasErrorOf(publish({ rowBody: undefined, target: { recording: TODO } }))).code).toBe('ROW_BODY_REQUIRED');
    expect((await canvasErrorOf(publish({ rowBody: ' \n', target: { recording: TODO } }))).code).toBe('ROW_BODY_REQUIRED');
    expect(server.requests).toHaveLength(0);
  });

  it('sends again when the row body changes, though the canvas did not', async () => {
    await open();
    const first = await publish({ target: { recording: TODO } });
    const second = await publish({ rowBody: `${ROW}\n* blocked on: review\n` });
    expect(second.outcome).toBe('updated');
    expect(second.revision).toBe(first.revision);
    expect(server.comments.get(Number(first.comment!.id))!.content).toContain('blocked on: review');
  });

  it('a dry run prints the HTML and sends and writes nothing', async () => {
    await open();
    const r = await publish({ dryRun: true, target: { recording: TODO }, env: {} });
    expect(r.outcome).toBe('dry-run');
    expect(r.wouldSend).toBe('create');
    expect(r.html).toBe(composeCommentHtml(ROW, render({ revision: r.revision } as Snapshot)));
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(ws.root, 'state', 'publish', 'fix-login-3.json'))).toBe(false);
  });

  it('takes the comment from the ledger row, which it never writes', async () => {
    await open();
    const made = await publishComment(tempWorkspace(), { ledger: 'other', rowBody: 'x', env: env(), target: { recording: TODO }, http: { clock } });
    mkdirSync(ws.ledgerDir, { recursive: true });
    const rowFile = join(ws.ledgerDir, 'fix-login-3.json');
    const rowText = JSON.stringify({ id: 'fix-login-3', state: 'executing', basecamp: { account_id: 195539477, bucket_id: 2085958504, comment_id: Number(made.comment!.id), todo_id: 1069479338 } });
    writeFileSync(rowFile, rowText);
    const r = await publish();
    expect(r).toMatchObject({ outcome: 'updated', comment: { id: made.comment!.id, recording: '1069479338' } });
    expect(server.writes().map((w) => w.method)).toEqual(['POST', 'PUT']);
    expect(readFileSync(rowFile, 'utf8')).toBe(rowText);
  });

  it('reads the comment from a --comment-url, API or web', async () => {
    await open();
    const made = await publish({ target: { recording: TODO } });
    const other = tempWorkspace();
    for (const url of [`https://3.basecampapi.com/195539477/buckets/2085958504/comments/${made.comment!.id}.json`, `${TODO}#__recording_${made.comment!.id}`]) {
      const r = await publishComment(other, { ledger: 'fix-login-3', rowBody: `${url}\n`, env: env(), target: { commentUrl: url }, http: { clock } });
      expect(r).toMatchObject({ outcome: 'updated', comment: { id: made.comment!.id } });
    }
    expect(server.comments.size).toBe(1);
  });

  it('never makes a second comment: a recorded comment wins over --recording', async () => {
    await open();
    const first = await publish({ target: { recording: TODO } });
    await edit('more');
    const r = await publish({ target: { recording: TODO } });
    expect(r).toMatchObject({ outcome: 'updated', comment: { id: first.comment!.id } });
    const e = await canvasErrorOf(publish({ target: { recording: '1069479999' }, force: true }));
    expect(e.code).toBe('PUBLISH_TARGET');
    expect(server.comments.size).toBe(1);
  });

  it('reports a comment deleted on Basecamp and how to re-create it; --recreate checks, then creates', async () => {
    await open();
    const first = await publish({ target: { recording: TODO } });
    await edit('more');
    server.delete(Number(first.comment!.id));
    const e = await canvasErrorOf(publish());
    expect(e.code).toBe('PUBLISH_NOT_FOUND');
    expect(e.hint).toContain('--recreate');
    expect(server.writes().filter((w) => w.method === 'POST')).toHaveLength(1);

    const again = await publish({ recreate: true });
    expect(again.outcome).toBe('created');
    expect(again.comment!.id).not.toBe(first.comment!.id);
    expect(record()).toMatchObject({ comment: { id: again.comment!.id }, replaced: [first.comment!.id] });
    const refused = await canvasErrorOf(publish({ recreate: true }));
    expect(refused.code).toBe('PUBLISH_TARGET');
    expect(server.comments.size).toBe(1);
  });

  it('waits out a 429 and retries 503s within its budget', async () => {
    await open();
    server.script.push({ status: 429, headers: { 'Retry-After': '2' } });
    const first = await publish({ target: { recording: TODO } });
    await edit('more');
    server.script.push({ status: 503 }, { status: 503 });
    const r = await publish();
    expect(r).toMatchObject({ outcome: 'updated', comment: { id: first.comment!.id } });
    expect(clock.sleeps).toEqual([2000, 1000, 2000]);
  });

  it('fails clearly on a bad token, without the token anywhere, and records nothing', async () => {
    await open();
    const secret = 'gho_wrongSECRETtoken1234567890';
    const e = await canvasErrorOf(publish({ target: { recording: TODO }, env: { ...env(), BASECAMP_ACCESS_TOKEN: secret } }));
    expect(e.code).toBe('PUBLISH_AUTH');
    expect(JSON.stringify({ m: e.message, h: e.hint, d: e.data })).not.toContain(secret);
    expect(existsSync(join(ws.root, 'state', 'publish', 'fix-login-3.json'))).toBe(false);
  });

  it('refuses without a token, a User-Agent contact or an https API root, sending nothing', async () => {
    await open();
    const cases: NodeJS.ProcessEnv[] = [
      { ...env(), BASECAMP_ACCESS_TOKEN: '' },
      { ...env(), BASECAMP_ACCESS_TOKEN: 'abc\u0000SECRETdef' },
      { ...env(), BASECAMP_CONTACT: '' },
      { ...env(), BASECAMP_CONTACT: '', BASECAMP_USER_AGENT: 'canvas' },
      { ...env(), BASECAMP_API_URL: 'http://basecamp.example.com' },
    ];
    for (const e of cases) {
      const err = await canvasErrorOf(publish({ target: { recording: TODO }, env: e }));
      expect(err.code).toBe('PUBLISH_CONFIG');
      expect(`${err.message} ${err.hint}`).not.toContain('SECRET');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses without any target', async () => {
    await open();
    expect((await canvasErrorOf(publish())).code).toBe('PUBLISH_TARGET');
    expect((await canvasErrorOf(publish({ target: { comment: '12' } }))).code).toBe('PUBLISH_TARGET');
    expect((await canvasErrorOf(publish({ target: { commentUrl: 'https://example.com/nothing' } }))).code).toBe('PUBLISH_TARGET');
    expect((await canvasErrorOf(publish({ target: { account: '1', comment: 'abc' } }))).code).toBe('PUBLISH_TARGET');
  });

  it('writes the record atomically, leaving no temporary file', async () => {
    await open();
    await publish({ target: { recording: TODO } });
    const dir = join(ws.root, 'state', 'publish');
    expect(readdirSync(dir).filter((f) => f !== 'canvas.lock' && f !== 'canvas-tmp')).toEqual(['fix-login-3.json']);
    expect(readdirSync(join(dir, 'canvas-tmp'))).toEqual([]);
  });

  it('a later publish removes the private files killed publishes left, once an hour old and their process gone', async () => {
    await open();
    const exited = spawnSync(process.execPath, ['-e', '0']);
    const dir = join(ws.root, 'state', 'publish', 'canvas-tmp');
    mkdirSync(dir, { recursive: true });
    const gone = join(dir, `fix-login-3.json.${exited.pid}.0a1b2c3d`);
    const mine = join(dir, `fix-login-3.json.${process.pid}.0a1b2c3d`);
    const hoursAgo = Date.now() / 1000 - 2 * 3600;
    for (const f of [gone, mine]) {
      writeFileSync(f, '{"version":');
      utimesSync(f, hoursAgo, hoursAgo);
    }
    await publish({ target: { recording: TODO } });
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });
});
