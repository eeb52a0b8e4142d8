import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession, SDKS } from '../helpers/mcp-client.js';
import { runMain } from '../helpers/run-main.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';

/** What one client heard, in order: `updated <uri>` and `list_changed`. */
function listen(s: McpSession): { heard: string[]; next: (what: string) => Promise<void> } {
  const heard: string[] = [];
  const waiting: Array<{ what: string; resolve: () => void }> = [];
  const hear = (what: string) => {
    heard.push(what);
    for (const w of waiting.splice(0)) {
      if (w.what === what) w.resolve();
      else waiting.push(w);
    }
  };
  s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => hear(`updated ${n.params.uri}`));
  s.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => hear('list_changed'));
  // Resolves when `what` is heard after this call (earlier hearings do not count).
  const next = (what: string) => new Promise<void>((resolve) => waiting.push({ what, resolve }));
  return { heard, next };
}

/** A write through the command line's entry, as another process would make it; returns nothing. */
async function cliInsert(ws: Workspace, ledger: string, text: string): Promise<void> {
  const read = await runMain(ws, ['read', ledger]);
  const base = /^Canvas-Base: ([0-9a-f]{40})/.exec(read.stdout)![1]!;
  const r = await runMain(ws, ['insert', ledger, '--into', 'root', '--text', text, '--base', base, '--why', 'news for the subscribers'], { CANVAS_AUTHOR: 'leo' });
  expect(r.code, r.stderr).toBe(0);
}

describe('canvases as MCP resources (docs/mcp.md, "Resources and subscriptions")', () => {
  let ws: Workspace;
  let ana: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-resources-');
    for (const ledger of ['a', 'b', 'hidden']) await createCanvas(ws, { ledger, why: 'a canvas to follow', author: 'leo' });
    for (const ledger of ['a', 'b']) await grantRole(ws, { ledger, who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' });
    ana = await connectAs(ws, 'ana');
  });

  afterAll(async () => {
    await ana.close();
  });

  it('lists each canvas the identity may read as canvas://<ledger>, names the template, and reads as canvas_read does', async () => {
    const { resourceTemplates } = await ana.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
      ['canvas://{ledger}', 'text/plain'],
      ['ui://canvas/{ledger}', 'text/html;profile=mcp-app'],
    ]);
    const { resources } = await ana.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['canvas://a', 'canvas://b']);
    const read = await ana.client.readResource({ uri: 'canvas://a' });
    const { revision, xml } = (await ana.call('canvas_read', { workspace: ws.root, ledger: 'a' })).structured as { revision: string; xml: string };
    expect(read.contents).toEqual([{ uri: 'canvas://a', mimeType: 'text/plain', text: `Canvas-Base: ${revision}\n${xml}` }]);
  });

  it('refuses a canvas the identity holds no role on, one that does not exist, and another scheme, with the error shape as data', async () => {
    const refusal = async (uri: string) => {
      try {
        await ana.client.readResource({ uri });
      } catch (e) {
        expect(e).toBeInstanceOf(McpError);
        return { code: (e as McpError).code, canvas: ((e as McpError).data as { code?: string } | undefined)?.code };
      }
      throw new Error(`${uri} was read`);
    };
    expect(await refusal('canvas://hidden')).toEqual({ code: -32602, canvas: 'NO_ROLE' });
    // A resource not found is -32602 on every revision (the 2026-07-28 revision says so; the SDK answers so).
    expect(await refusal('canvas://nowhere')).toEqual({ code: -32602, canvas: 'CANVAS_NOT_FOUND' });
    expect(await refusal('file:///etc/passwd')).toMatchObject({ code: -32602 });
    await expect(ana.client.subscribeResource({ uri: 'canvas://hidden' })).rejects.toMatchObject({ code: -32602, data: { code: 'NO_ROLE' } });
  });

  it('sends resources/updated for a subscribed canvas when a command-line write moves it, and for no other', async () => {
    const { heard, next } = listen(ana);
    await ana.client.subscribeResource({ uri: 'canvas://a' });
    const a = next('updated canvas://a');
    await cliInsert(ws, 'b', 'Not followed yet.');
    await cliInsert(ws, 'a', 'Followed.');
    await a;
    expect(heard).toEqual(['updated canvas://a']);

    await ana.client.unsubscribeResource({ uri: 'canvas://a' });
    await ana.client.subscribeResource({ uri: 'canvas://b' });
    const b = next('updated canvas://b');
    await cliInsert(ws, 'a', 'No longer followed.');
    await cliInsert(ws, 'b', 'Followed now.');
    await b;
    expect(heard).toEqual(['updated canvas://a', 'updated canvas://b']);

    const listed = next('list_changed');
    expect((await runMain(ws, ['create', 'c', '--why', 'a new canvas'], { CANVAS_AUTHOR: 'leo' })).code).toBe(0);
    await listed;
    expect(heard.at(-1)).toBe('list_changed');
  });
});

describe.each(SDKS)('following a canvas through the %s client (resources/subscribe, or subscriptions/listen)', (sdk) => {
  let ws: Workspace;
  let ana: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-follow-');
    for (const ledger of ['a', 'b', 'hidden']) await createCanvas(ws, { ledger, why: 'a canvas to follow', author: 'leo' });
    for (const ledger of ['a', 'b']) await grantRole(ws, { ledger, who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' });
    ana = await connectAs(ws, 'ana', { sdk });
  });

  afterAll(async () => {
    await ana.close();
  });

  it('speaks the revision the client asked for', () => {
    expect(ana.protocol).toBe(sdk === 'v1' ? '2025-11-25' : '2026-07-28');
  });

  it('hears a command-line write to the followed canvas, and none to another; nothing once it stops', async () => {
    const heard: string[] = [];
    let next: (() => void) | null = null;
    const stop = await ana.follow('a', (uri) => {
      heard.push(uri);
      next?.();
    });
    const a = new Promise<void>((resolve) => (next = resolve));
    await cliInsert(ws, 'b', 'Not followed.');
    await cliInsert(ws, 'a', 'Followed.');
    await a;
    expect(heard).toEqual(['canvas://a']);
    await stop();
    const b = await ana.follow('b', (uri) => {
      heard.push(uri);
      next?.();
    });
    const heardB = new Promise<void>((resolve) => (next = resolve));
    await cliInsert(ws, 'a', 'No longer followed.');
    await cliInsert(ws, 'b', 'Followed now.');
    await heardB;
    expect(heard).toEqual(['canvas://a', 'canvas://b']);
    await b();
  });

  it('refuses to follow a canvas the identity holds no role on, with the error shape as data', async () => {
    await expect(ana.follow('hidden', () => {})).rejects.toMatchObject({ code: -32602, data: { code: 'NO_ROLE' } });
    await expect(ana.follow('nowhere', () => {})).rejects.toMatchObject({ code: -32602, data: { code: 'CANVAS_NOT_FOUND' } });
  });
});

describe('a subscribed server is a long-lived process that stops cleanly', () => {
  it('exits 0 on its own once the client closes stdin, its ref watcher closed with it', async () => {
    const ws = tempWorkspace('canvas-mcp-resources-exit-');
    await createCanvas(ws, { ledger: 'a', why: 'a canvas to follow', author: 'eve' });
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'mcp', '--as', 'eve', '--workspace', ws.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // A server that does not stop is killed when the test ends, so a failure leaves nothing running.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, (m: unknown) => void>();
    lines.on('line', (line) => {
      const m = JSON.parse(line) as { id?: number };
      if (m.id !== undefined) answers.get(m.id)?.(m);
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<unknown>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    const init = (await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'canvas-test', version: '0' } })) as {
      result: { capabilities: { resources?: { subscribe?: boolean } } };
    };
    expect(init.result.capabilities.resources?.subscribe).toBe(true);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    expect(await request(2, 'resources/subscribe', { uri: 'canvas://a' })).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    child.stdin.end();
    // A watcher left open (a file watch, a timer) would keep the process alive and time this out.
    expect(await exited).toBe(0);
  });
});
