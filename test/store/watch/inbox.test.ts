import { spawn } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ackInbox } from '../../../src/store/watch/ack-inbox.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { freezeCanvas, openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Outcome } from '../../../src/store/repo/outcome.js';
import { approveProposal } from '../../../src/store/write/decide-proposal.js';
import { type Inbox, readInbox } from '../../../src/store/read/read-inbox.js';
import { watchCanvas } from '../../../src/store/watch/watch-canvas.js';
import { readWatch, watcherDir } from '../../../src/store/watch/watch-files.js';
import { resolveWorkspace, type Workspace } from '../../../src/store/repo/workspace.js';
import { canvasErrorOf } from '../../helpers/canvas-error-of.js';
import { runMain } from '../../helpers/run-main.js';
import { ROOT, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

// The inbox (docs/store.md, "Watches and the inbox"): derived from the history and one cursor per
// canvas per watcher, so no event is lost or shown twice.

function applied(o: Outcome): Applied {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

let template: Workspace;
let problem: string;
let start: string;

beforeAll(async () => {
  template = tempWorkspace('canvas-inbox-');
  const o = applied(await openCanvas(template, { ledger: 'in1', problem: 'Logins time out.', expectedValue: 'p99 under 2 s.', why: 'opened', author: 'leo' }));
  problem = o.nodes![0]!;
  for (const [who, role] of [
    ['ana', 'editor'],
    ['bo', 'viewer'],
    ['carl', 'commenter'],
  ] as const) {
    start = applied(await grantRole(template, { ledger: 'in1', who, role, why: `${who} joins`, author: 'leo' })).revision;
  }
  await watchCanvas(template, { ledger: 'in1', author: 'ana' });
  await watchCanvas(template, { ledger: 'in1', author: 'bo' });
});

function copyOf(): Workspace {
  const dir = tempDir('canvas-inbox-');
  cpSync(template.root, dir, { recursive: true });
  return resolveWorkspace({ workspace: dir });
}

async function inboxJson(ws: Workspace, who: string, ack = false): Promise<Inbox> {
  const r = await runMain(ws, ['inbox', ...(ack ? ['--ack'] : []), '--json'], { CANVAS_AUTHOR: who });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Inbox;
}

describe('canvas inbox', () => {
  it('a write made from the CLI reaches a watcher once; --ack then shows nothing new', async () => {
    const ws = copyOf();
    expect((await inboxJson(ws, 'ana')).events).toEqual([]);
    const w = await runMain(ws, ['replace', 'in1', problem, '--text', 'Logins time out after 30 s.', '--base', start, '--why', 'measured it', '--json'], { CANVAS_AUTHOR: 'leo | by-hand' });
    expect(w.code, w.stderr).toBe(0);
    const revision = (JSON.parse(w.stdout) as Applied).revision;
    const first = await inboxJson(ws, 'ana');
    expect(first.events).toEqual([
      {
        ledger: 'in1',
        commit: revision,
        op: 'replace',
        node: problem,
        author: 'leo | by-hand',
        reason: 'measured it',
        date: expect.any(String),
        diff: {
          node: problem,
          change: 'replaced',
          before: { type: 'text', v: 1, parent: 'root', xml: `<text id="${problem}" v="1">Logins time out.</text>` },
          after: { type: 'text', v: 2, parent: 'root', xml: `<text id="${problem}" v="2">Logins time out after 30 s.</text>` },
        },
      },
    ]);
    expect(first.canvases).toEqual([{ ledger: 'in1', cursor: start, revision, events: 1, cursorLost: false }]);
    // Not acknowledged: shown again, the same.
    expect(await inboxJson(ws, 'ana')).toEqual(first);
    const text = await runMain(ws, ['inbox', '--ack'], { CANVAS_AUTHOR: 'ana' });
    expect(text.stdout).toContain(`in1  ${revision.slice(0, 12)}  replace ${problem} by leo | by-hand, `);
    expect(text.stdout).toContain(`    + <text id="${problem}" v="2">Logins time out after 30 s.</text>\n`);
    expect(text.stdout).toContain('1 change on the 1 canvas ana watches: marked as read.\n');
    expect(readWatch(ws, 'ana', 'in1')!.cursor).toBe(revision);
    expect(await inboxJson(ws, 'ana')).toMatchObject({ events: [], canvases: [{ cursor: revision, revision, events: 0 }] });
    // Bo's cursor is his own: he still has the change.
    expect((await inboxJson(ws, 'bo')).events.map((e) => e.commit)).toEqual([revision]);
  });

  it("--ack moves the cursor to what was shown, not to what arrived since; the watcher's own changes are not shown", async () => {
    const ws = copyOf();
    const a = applied(await insertNode(ws, { ledger: 'in1', after: problem, payload: { text: 'Ana checked the proxy.' }, base: start, why: 'her finding', author: 'ana' }));
    const b = applied(await insertNode(ws, { ledger: 'in1', after: a.node!, payload: { text: 'Leo checked the app.' }, base: a.revision, why: 'his finding', author: 'leo' }));
    const shown = await readInbox(ws, { author: 'ana | step:read' });
    expect(shown.events.map((e) => [e.commit, e.author])).toEqual([[b.revision, 'leo']]);
    const c = applied(await insertNode(ws, { ledger: 'in1', after: b.node!, payload: { text: 'A third note.' }, base: b.revision, why: 'arrived after the read', author: 'leo' }));
    expect(await ackInbox(ws, { author: 'ana', cursors: { in1: shown.canvases[0]!.revision } })).toEqual({ who: 'ana', acked: [{ ledger: 'in1', cursor: b.revision }] });
    expect((await readInbox(ws, { author: 'ana' })).events.map((e) => e.commit)).toEqual([c.revision]);
    // Acknowledging an older read again moves nothing back.
    expect((await ackInbox(ws, { author: 'ana', cursors: { in1: a.revision } })).acked).toEqual([]);
    expect(readWatch(ws, 'ana', 'in1')!.cursor).toBe(b.revision);
  });

  it('a freeze carries its reason as the final report; a proposal waits for an editor, not for a viewer', async () => {
    const ws = copyOf();
    const p = await replaceNode(ws, { ledger: 'in1', node: problem, payload: { text: 'Carl thinks it is DNS.' }, base: start, why: 'a hunch', author: 'carl' });
    expect(p.outcome).toBe('proposed');
    const id = (p as { proposalId: string }).proposalId;
    const ana = await readInbox(ws, { author: 'ana' });
    expect(ana.events).toMatchObject([{ op: 'propose', author: 'carl', reason: 'a hunch', proposal: { id }, diff: null }]);
    expect(ana.waiting).toEqual([{ ledger: 'in1', id, op: 'replace', node: problem, proposedBy: 'carl', why: 'a hunch', base: start }]);
    const bo = await readInbox(ws, { author: 'bo' });
    expect(bo.events).toHaveLength(1);
    expect(bo.waiting).toEqual([]);
    const text = await runMain(ws, ['inbox'], { CANVAS_AUTHOR: 'ana' });
    expect(text.stdout).toContain(`Waiting for a decision by ana:\n  in1  proposal ${id}: replace ${problem} by carl: a hunch\n    canvas approve in1 ${id} --why "..."`);
    applied(await approveProposal(ws, { ledger: 'in1', proposal: id, why: 'checked: it is DNS', author: 'leo' }));
    applied(await freezeCanvas(ws, { ledger: 'in1', why: 'fixed in 2.4.1: the resolver now caches', author: 'leo' }));
    const after = await readInbox(ws, { author: 'ana' });
    expect(after.waiting).toEqual([]);
    expect(after.events.slice(1)).toMatchObject([
      { op: 'replace', node: problem, author: 'leo', proposal: { id, proposedBy: 'carl' }, diff: { change: 'replaced' } },
      { op: 'freeze', node: null, ending: { kind: 'frozen', report: 'fixed in 2.4.1: the resolver now caches' }, diff: null },
    ]);
    expect((await runMain(ws, ['inbox'], { CANVAS_AUTHOR: 'bo' })).stdout).toContain('  final report (frozen): fixed in 2.4.1: the resolver now caches\n');
  });

  it('a cursor that is lost shows the whole history, and acknowledging it mends the watch', async () => {
    const ws = copyOf();
    writeFileSync(join(watcherDir(ws, 'bo'), 'in1.json'), 'not json');
    const lost = await readInbox(ws, { author: 'bo' });
    expect(lost.canvases[0]).toMatchObject({ cursor: null, cursorLost: true });
    expect(lost.events.map((e) => e.op)).toEqual(['create', 'insert', 'insert', 'grant', 'grant', 'grant']);
    await ackInbox(ws, { author: 'bo', cursors: { in1: lost.canvases[0]!.revision } });
    expect((await readInbox(ws, { author: 'bo' })).events).toEqual([]);
  });

  it('refuses to acknowledge a revision that is not a commit of the canvas, and moves nothing', async () => {
    const ws = copyOf();
    const before = readWatch(ws, 'ana', 'in1');
    const e = await canvasErrorOf(ackInbox(ws, { author: 'ana', cursors: { in1: '0'.repeat(40) } }));
    expect(e.code).toBe('USAGE');
    expect(readWatch(ws, 'ana', 'in1')).toEqual(before);
    expect((await runMain(ws, ['inbox', '--json'], { CANVAS_AUTHOR: 'ana | ' })).code).toBe(2);
  });

  it('an inbox reader killed between reading and acknowledging loses nothing', async () => {
    const ws = copyOf();
    const one = applied(await insertNode(ws, { ledger: 'in1', after: problem, payload: { text: 'One.' }, base: start, why: 'first', author: 'leo' }));
    // A real process, killed the moment its inbox reaches us: its acknowledgement comes after
    // the inbox is written, so the kill lands before it, during it or after it.
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'inbox', '--ack', '--json'], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: 'ana' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    child.stdout.on('data', (b) => {
      out += b;
      child.kill('SIGKILL');
    });
    await ended;
    const cursor = readWatch(ws, 'ana', 'in1')!.cursor;
    // The cursor is where it was, or exactly at what the killed reader was shown.
    expect([start, one.revision]).toContain(cursor);
    if (cursor === one.revision) expect(out).toContain(one.revision);
    const two = applied(await insertNode(ws, { ledger: 'in1', after: one.node!, payload: { text: 'Two.' }, base: one.revision, why: 'second', author: 'leo' }));
    const next = await inboxJson(ws, 'ana', true);
    expect(next.events.map((e) => e.commit)).toEqual(cursor === start ? [one.revision, two.revision] : [two.revision]);
    expect((await inboxJson(ws, 'ana')).events).toEqual([]);
  });
});

describe('canvas inbox --ack, stopped while it prints', () => {
  it('a reader killed before its inbox was all written has acknowledged nothing', async () => {
    const ws = copyOf();
    // Changes whose diffs fill far more than a pipe holds: the reader blocks writing them.
    let base = start;
    const commits: string[] = [];
    for (const word of ['alpha', 'beta', 'gamma', 'delta']) {
      const r = applied(await replaceNode(ws, { ledger: 'in1', node: problem, payload: { text: `${word} `.repeat(20_000) }, base, why: `a long ${word}`, author: 'leo' }));
      base = r.revision;
      commits.push(r.revision);
    }
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'inbox', '--ack', '--json'], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: 'ana' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    // The first bytes say it is printing; the rest (over 600 KB) cannot all be in the pipe yet.
    child.stdout.once('data', () => {
      child.stdout.pause();
      child.kill('SIGKILL');
    });
    await ended;
    expect(readWatch(ws, 'ana', 'in1')!.cursor).toBe(start);
    expect((await inboxJson(ws, 'ana', true)).events.map((e) => e.commit)).toEqual(commits);
    expect((await inboxJson(ws, 'ana')).events).toEqual([]);
  });
});
