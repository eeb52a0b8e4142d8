// canvas publish against a local Basecamp through the CLI's entry in process; real processes pin
// what only a process shows: standard input (`--row-body -`), a refusal's exit code and stream,
// a named pipe nobody writes to (it would block the test's own process), and what a read loads.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeCommentHtml } from '../../src/publish/compose-comment-html.js';
import { markdownToBasecampHtml } from '../../src/publish/markdown-to-basecamp.js';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { loadedBy, matching } from '../helpers/loaded-modules.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';
import { FakeBasecamp } from './helpers/basecamp-server.js';

const ROW = '**Status:** framed\n\n* next: open the canvas\n';
const TODO = 'https://3.basecamp.com/195539477/buckets/2085958504/todos/1069479338';

let server: FakeBasecamp;
let ws: Workspace;
let rowFile: string;

beforeEach(async () => {
  server = await new FakeBasecamp().start();
  ws = tempWorkspace();
  rowFile = join(ws.root, 'row.md');
  writeFileSync(rowFile, ROW);
});
afterEach(async () => {
  await server.stop();
});

function env(token = server.token): Record<string, string> {
  return { BASECAMP_ACCESS_TOKEN: token, BASECAMP_API_URL: server.url, BASECAMP_CONTACT: 'tests@example.com' };
}

describe('canvas publish', () => {
  it('creates, then says unchanged and sends nothing; --json tells the orchestrator what happened', async () => {
    const first = await runMain(ws, ['publish', 'task-1', '--row-body', rowFile, '--recording', TODO, '--json'], env());
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({ outcome: 'created', ledger: 'task-1', revision: null, comment: { account: '195539477', bucket: '2085958504', recording: '1069479338' } });
    expect(server.comments.get(Number(out.comment.id))?.content).toBe(markdownToBasecampHtml(ROW));

    const second = await runMain(ws, ['publish', 'task-1', '--row-body', rowFile], env());
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`unchanged: comment ${out.comment.id}`);
    expect(server.writes()).toHaveLength(1);

    writeFileSync(rowFile, `${ROW}* blocked on: nothing\n`);
    const third = await runCli(ws, ['publish', 'task-1', '--row-body', '-', '--json'], env(), readFileSync(rowFile, 'utf8'));
    expect(JSON.parse(third.stdout)).toMatchObject({ outcome: 'updated', comment: { id: out.comment.id } });
  });

  it('publishes the row body and the canvas render, then rewrites the same comment as the canvas changes', async () => {
    const opened = await runMain(ws, ['open', 'task-2', '--problem', 'Logins <b>fail</b>.', '--expected-value', 'Every address logs in.', '--why', 'the task starts']);
    expect(opened.code, opened.stderr).toBe(0);
    const first = await runMain(ws, ['publish', 'task-2', '--row-body', rowFile, '--recording', TODO, '--json'], env());
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout);
    const snapshot = await readSnapshot(ws, { ledger: 'task-2' });
    expect(out).toMatchObject({ outcome: 'created', revision: snapshot.revision });
    const sent = JSON.parse(server.writes()[0]!.body).content as string;
    expect(sent).toBe(composeCommentHtml(ROW, renderComment(snapshot)));
    expect(sent.startsWith(markdownToBasecampHtml(ROW))).toBe(true);
    expect(sent).toContain(snapshot.revision);
    expect(sent).toContain('Logins &#x3C;b>fail&#x3C;/b>.');
    expect(server.comments.get(Number(out.comment.id))?.content).toBe(sent);

    const read = await runMain(ws, ['read', 'task-2']);
    const edit = await runMain(ws, ['insert', 'task-2', '--into', 'root', '--text', 'Ship behind a flag.', '--base', baseOf(read.stdout), '--why', 'decided in review']);
    expect(edit.code, edit.stderr).toBe(0);
    const second = await runMain(ws, ['publish', 'task-2', '--row-body', rowFile], env());
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`updated comment ${out.comment.id} in place`);
    const third = await runMain(ws, ['publish', 'task-2', '--row-body', rowFile], env());
    expect(third.stdout).toContain('nothing sent');
    expect(server.comments.size).toBe(1);
    expect(server.comments.get(Number(out.comment.id))?.content).toContain('Ship behind a flag.');
    expect(server.writes().map((w) => `${w.method} ${w.status}`)).toEqual(['POST 201', 'PUT 200']);
  });

  it('refuses without --row-body (exit 2) and sends nothing', async () => {
    const r = await runCli(ws, ['publish', 'task-1', '--recording', TODO], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: ROW_BODY_REQUIRED: /);
    expect(server.requests).toHaveLength(0);
  });

  it('--row-body naming a named pipe nobody writes to is refused at once (USAGE, exit 2), as a payload file is; a missing file is ROW_BODY_REQUIRED', async () => {
    const fifo = join(ws.root, 'row.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(ws, ['publish', 'task-1', '--row-body', fifo, '--recording', TODO, '--json'], env());
    expect(r.code, r.stderr).toBe(2);
    const out = JSON.parse(r.stdout) as { code?: string; error?: { code: string } };
    expect(out.error?.code ?? out.code).toBe('USAGE');
    const missing = await runMain(ws, ['publish', 'task-1', '--row-body', join(ws.root, 'nope.md'), '--recording', TODO], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^canvas: ROW_BODY_REQUIRED: /);
    expect(server.requests).toHaveLength(0);
  });

  it('fails a bad token with exit 2 and a clear message that never shows the token', async () => {
    const secret = 'bc-SECRET-token-0123456789';
    for (const json of [false, true]) {
      const r = await runMain(ws, ['publish', 'task-1', '--row-body', rowFile, '--recording', TODO, ...(json ? ['--json'] : [])], env(secret));
      expect(r.code).toBe(2);
      expect(`${r.stdout}${r.stderr}`).toMatch(/PUBLISH_AUTH/);
      expect(`${r.stdout}${r.stderr}`).toMatch(/BASECAMP_ACCESS_TOKEN/);
      expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    }
    expect(server.comments.size).toBe(0);
  });

  it('--dry-run prints the HTML and sends nothing', async () => {
    const r = await runMain(ws, ['publish', 'task-1', '--row-body', rowFile, '--recording', TODO, '--dry-run'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${markdownToBasecampHtml(ROW)}\n`);
    expect(r.stderr).toMatch(/dry run: would create the comment; nothing sent/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('the publisher stays out of the light commands', () => {
  it('its modules and the sanitizer are in the lazy bundle, and a read runs none of them', async () => {
    const dir = join(ROOT, 'dist', 'cli');
    const entry = readFileSync(join(dir, 'canvas.cjs'), 'utf8');
    expect(entry).not.toMatch(/^\/\/ src\/publish\//m);
    expect(entry).not.toMatch(/^\/\/ node_modules\/hast-util-sanitize\//m);
    expect(readFileSync(join(dir, 'canvas-lazy.cjs'), 'utf8')).toMatch(/^\/\/ src\/publish\/publish-comment\.ts$/m);
    const ws = tempWorkspace();
    expect((await runMain(ws, ['create', 'quiet', '--why', 'a canvas to read'])).code).toBe(0);
    const r = await loadedBy(ws, ['read', 'quiet']);
    expect(r.code).toBe(0);
    expect(matching(r.modules, /^(src\/publish\/|node_modules\/rehype-sanitize\/|node_modules\/hast-util-sanitize\/)/)).toEqual([]);
  });
});
