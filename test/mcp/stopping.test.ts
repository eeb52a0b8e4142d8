import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { canvasLog } from '../../src/store/read/canvas-log.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type BundledScript, bundleScript } from '../helpers/bundle-script.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';

// The MCP server over stdio as a long-lived process (docs/mcp.md, "Running it", "Stopping"): a
// message that is not UTF-8 is refused with BAD_ENCODING before the server reads it, and SIGTERM
// lets the call under way finish and answer, refuses the calls that arrive meanwhile
// (SERVER_STOPPING), then ends the process with 0.

let fixture: BundledScript;
let ws: Workspace;

beforeAll(async () => {
  fixture = await bundleScript('test/cli/fixtures/paused-at-commit.ts', { splitting: true });
  ws = tempWorkspace('canvas-mcp-stop-');
  await createCanvas(ws, { ledger: 'st', why: 'a canvas to end', author: AUTHOR });
});

afterAll(() => fixture.remove());

/** A raw JSON-RPC client of a spawned server: send a line, wait for the answer to an id. */
function rawClient(child: ChildProcessWithoutNullStreams) {
  const answers = new Map<unknown, (m: Record<string, unknown>) => void>();
  const early = new Map<unknown, Record<string, unknown>>();
  let partial = '';
  child.stdout.on('data', (b: Buffer) => {
    const lines = (partial + b.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      const m = JSON.parse(line) as Record<string, unknown>;
      const waiting = answers.get(m.id);
      if (waiting) waiting(m);
      else early.set(m.id, m);
    }
  });
  const answer = (id: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const got = early.get(id);
      if (got) resolve(got);
      else answers.set(id, resolve);
    });
  const send = (message: Record<string, unknown> | Buffer) => child.stdin.write(Buffer.isBuffer(message) ? message : `${JSON.stringify(message)}\n`);
  const request = (id: number, method: string, params: Record<string, unknown> = {}) => {
    send({ jsonrpc: '2.0', id, method, params });
    return answer(id);
  };
  return { send, answer, request };
}

/** Start a server (the fixture: the CLI's entry, writes paused at their commit) and initialize it. */
async function started(): Promise<{
  child: ChildProcessWithoutNullStreams;
  client: ReturnType<typeof rawClient>;
  args: (a: Record<string, unknown>) => Record<string, unknown>;
  closed: Promise<number | null>;
}> {
  const child = spawn(process.execPath, [fixture.path, 'mcp', '--as', 'leo', '--workspace', ws.root], {
    env: { ...process.env, CANVAS_WORKSPACE: ws.root },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const client = rawClient(child);
  await client.request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stopping-test', version: '1' } });
  client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const list = (await client.request(2, 'tools/list')) as { result: { tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }> } };
  const freeze = list.result.tools.find((t) => t.name === 'canvas_freeze')!;
  // The workspace argument where the tool takes one.
  const args = (a: Record<string, unknown>) => ('workspace' in (freeze.inputSchema.properties ?? {}) ? { workspace: ws.root, ...a } : a);
  return { child, client, args, closed };
}

describe('canvas mcp', () => {
  it('refuses a message that is not UTF-8 with BAD_ENCODING for its id, writes nothing, and goes on serving', async () => {
    const { child, client, args, closed } = await started();
    const before = repoState(ws);
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'canvas_freeze', arguments: args({ ledger: 'st', why: 'A__B' }) } })}\n`);
    const at = line.indexOf('__');
    line[at] = 0xc3;
    line[at + 1] = 0x28;
    client.send(line);
    const refused = (await client.answer(7)) as { error: { code: number; data: { code: string } } };
    expect(refused.error).toMatchObject({ code: -32700, data: { code: 'BAD_ENCODING' } });
    expect(repoState(ws)).toEqual(before);
    const ping = await client.request(8, 'ping');
    expect(ping).toMatchObject({ id: 8, result: {} });
    child.stdin.end();
    expect(await closed).toBe(0);
  });

  it('on SIGTERM: the call under way finishes and answers, a new call gets SERVER_STOPPING, then it exits 0', async () => {
    const { child, client, args, closed } = await started();
    const control = (child.stdio as unknown as [unknown, unknown, unknown, Readable & Writable])[3];
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const atCommit = new Promise<void>((resolve) => control.once('data', () => resolve()));
    const before = (await canvasLog(ws, { ledger: 'st' })).length;
    const first = client.request(10, 'tools/call', { name: 'canvas_freeze', arguments: args({ ledger: 'st', why: 'under way when stopped' }) });
    await atCommit;
    const told = new Promise<void>((resolve) => child.stderr.on('data', () => stderr.includes('stopping') && resolve()));
    child.kill('SIGTERM');
    await told;
    const second = (await client.request(11, 'tools/call', { name: 'canvas_freeze', arguments: args({ ledger: 'st', why: 'too late' }) })) as { error: { data: { code: string } } };
    expect(second.error.data.code).toBe('SERVER_STOPPING');
    control.write('g');
    const answered = (await first) as { result: { isError?: boolean; structuredContent?: { outcome?: string }; content: Array<{ text: string }> } };
    expect(answered.result.isError).not.toBe(true);
    expect(JSON.stringify(answered.result)).toContain('applied');
    expect(await closed).toBe(0);
    const log = await canvasLog(ws, { ledger: 'st' });
    expect(log.length).toBe(before + 1);
    expect(JSON.stringify(log)).toContain('under way when stopped');
    expect(JSON.stringify(log)).not.toContain('too late');
  });
});
