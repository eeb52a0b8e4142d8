import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole, revokeRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { listWatchers } from '../../src/store/watch/list-watchers.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import type { Inbox } from '../../src/store/read/read-inbox.js';
import { readWatch } from '../../src/store/watch/watch-files.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { runCli, tempWorkspace } from '../helpers/workspace.js';

// Watching over MCP (docs/store.md, "Watches and the inbox"), with a real SDK client.

describe('watches over MCP', () => {
  let ws: Workspace;
  let ana: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-watch-');
    await createCanvas(ws, { ledger: 'm1', why: 'a canvas to watch', author: 'leo' });
    await grantRole(ws, { ledger: 'm1', who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' });
    ana = await connectAs(ws, 'ana');
  });

  afterAll(async () => {
    await ana.close();
  });

  it('canvas_read makes the caller a watcher, with the cursor at the revision read', async () => {
    expect((await listWatchers(ws, 'm1')).map((w) => w.who)).toEqual(['leo']);
    const { base } = await ana.read('m1');
    expect((await listWatchers(ws, 'm1')).map((w) => w.who)).toEqual(['ana', 'leo']);
    expect(readWatch(ws, 'ana', 'm1')?.cursor).toBe(base);
  });

  it('a write over MCP makes its author a watcher as well', async () => {
    const c = (await grantRole(ws, { ledger: 'm1', who: 'bo', role: 'editor', why: 'bo edits', author: 'leo' })) as Applied;
    const bo = await connectAs(ws, 'bo');
    try {
      const r = (await bo.write('canvas_insert', { workspace: ws.root, ledger: 'm1', into: 'root', text: 'Bo was here.', base: c.revision, why: 'a note' })) as Applied;
      expect(r.outcome).toBe('applied');
      expect(readWatch(ws, 'bo', 'm1')?.cursor).toBe(r.revision);
    } finally {
      await bo.close();
    }
  });
});

describe('the inbox over MCP', () => {
  let ws: Workspace;
  let ana: McpSession;
  let start: string;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-inbox-');
    const c = (await createCanvas(ws, { ledger: 'm2', why: 'a canvas to follow', author: 'leo' })) as Applied;
    start = ((await grantRole(ws, { ledger: 'm2', who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' })) as Applied).revision;
    expect(c.outcome).toBe('applied');
    ana = await connectAs(ws, 'ana');
  });

  afterAll(async () => {
    await ana.close();
  });

  it('a client watches; a write from the CLI reaches its inbox once; acknowledged, nothing new', async () => {
    const watched = await ana.call('canvas_watch', { workspace: ws.root, ledger: 'm2' });
    expect(watched.structured).toMatchObject({ ledger: 'm2', watching: true, changed: true, cursor: start });
    const w = await runCli(ws, ['insert', 'm2', '--into', 'root', '--text', 'The proxy idles out at 30 s.', '--base', start, '--why', 'measured', '--json'], { CANVAS_AUTHOR: 'leo' });
    expect(w.code, w.stderr).toBe(0);
    const written = JSON.parse(w.stdout) as Applied;
    const first = (await ana.call('canvas_inbox', { workspace: ws.root })).structured as unknown as Inbox & { acked: unknown[] };
    expect(first.events.map((e) => [e.commit, e.op, e.node, e.author, e.reason, e.diff?.change])).toEqual([[written.revision, 'insert', written.node, 'leo', 'measured', 'inserted']]);
    expect(first.acked).toEqual([]);
    // Not acknowledged yet: the same again.
    expect((await ana.call('canvas_inbox', { workspace: ws.root })).structured).toEqual(first);
    const ack = Object.fromEntries(first.canvases.map((c) => [c.ledger, c.revision]));
    const second = (await ana.call('canvas_inbox', { workspace: ws.root, ack })).structured as unknown as Inbox & { acked: unknown[] };
    expect(second.acked).toEqual([{ ledger: 'm2', cursor: written.revision }]);
    expect(second.events).toEqual([]);
  });

  it("says nothing twice: a state an earlier event ended with, an ending's report (its reason), a waiting proposal's reason", async () => {
    await grantRole(ws, { ledger: 'm2', who: 'ana', role: 'editor', why: 'ana decides proposals', author: 'leo' });
    const node = (await ana.read('m2')).xml.match(/<text id="([a-z0-9]+)"/)![1]!;
    let base = (await ana.read('m2')).base;
    for (const text of ['Idle timeout is 60 s.', 'Idle timeout is 90 s.']) {
      const w = await runCli(ws, ['replace', 'm2', node, '--text', text, '--base', base, '--why', `measured again: ${text}`, '--json'], { CANVAS_AUTHOR: 'leo' });
      expect(w.code, w.stderr).toBe(0);
      base = (JSON.parse(w.stdout) as Applied).revision;
    }
    await grantRole(ws, { ledger: 'm2', who: 'cy', role: 'commenter', why: 'cy proposes', author: 'leo' });
    const p = await runCli(ws, ['insert', 'm2', '--into', 'root', '--text', 'Add a keep-alive.', '--base', base, '--why', 'keep-alives avoid the idle cut', '--json'], { CANVAS_AUTHOR: 'cy' });
    expect(p.code, p.stderr).toBe(0);
    expect((await runCli(ws, ['freeze', 'm2', '--why', 'the proxy settings are decided'], { CANVAS_AUTHOR: 'leo' })).code).toBe(0);
    const inbox = (await ana.call('canvas_inbox', { workspace: ws.root })).structured as {
      events: Array<{ op: string; reason: string; diff: { before?: unknown; after?: { xml: string } } | null; ending?: unknown }>;
      waiting: Array<{ why?: string }>;
    };
    const replaces = inbox.events.filter((e) => e.op === 'replace');
    expect(replaces).toHaveLength(2);
    expect(replaces[0]!.diff).toHaveProperty('before');
    expect(replaces[1]!.diff).not.toHaveProperty('before');
    expect(replaces[1]!.diff?.after?.xml).toContain('90 s');
    expect(inbox.events.find((e) => e.op === 'freeze')).toMatchObject({ reason: 'the proxy settings are decided', ending: { kind: 'frozen' } });
    expect(inbox.waiting).toHaveLength(1);
    expect(inbox.waiting[0]).not.toHaveProperty('why');
    expect(inbox.events.find((e) => e.op === 'propose')?.reason).toBe('keep-alives avoid the idle cut');
  });

  it('leaves out a watched canvas the caller lost its role on, and keeps the watch', async () => {
    await revokeRole(ws, { ledger: 'm2', who: 'ana', why: 'ana moved on', author: 'leo' });
    const inbox = (await ana.call('canvas_inbox', { workspace: ws.root })).structured as unknown as Inbox;
    expect(inbox.canvases).toEqual([]);
    expect(readWatch(ws, 'ana', 'm2')).not.toBeNull();
  });
});
