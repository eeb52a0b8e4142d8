import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { AUTHOR, ROOT, repoState, tempWorkspace } from '../helpers/workspace.js';

// A key named __proto__ is refused, never dropped; tools/call params of the wrong shape are
// -32602 (invalid params), not -32603 (docs/mcp.md, "Annotations", the paragraph after the
// table); a message over the stdio transport's limit is said on stderr and the server exits
// non-zero (docs/mcp.md, "Running it").

let ws: Workspace;
let leo: McpSession;
let base: string;

beforeAll(async () => {
  ws = tempWorkspace('canvas-mcp-hostile-');
  await createCanvas(ws, { ledger: 'm1', why: 'hostile messages', author: AUTHOR });
  base = (await readCanvas(ws, { ledger: 'm1' })).revision;
  leo = await connectAs(ws, 'leo');
});

afterAll(async () => {
  await leo?.close();
});

/** The JSON-RPC error code a raw tools/call answers with, or null when it answered a result. */
async function rpcError(params: unknown): Promise<number | null> {
  try {
    await leo.client.request({ method: 'tools/call', params: params as never }, (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema);
    return null;
  } catch (e) {
    if (e instanceof McpError) return e.code;
    throw e;
  }
}

describe('a key named __proto__', () => {
  it('in the arguments of a tool call is refused as an unknown argument, writing nothing', async () => {
    const before = repoState(ws);
    for (const proto of ['{"base":"x"}', '"x"', 'null', '5', '[]']) {
      const args = JSON.parse(`{"workspace":${JSON.stringify(ws.root)},"ledger":"m1","into":"root","text":"x","base":"${base}","why":"w","__proto__":${proto}}`) as Record<string, unknown>;
      const r = await leo.call('canvas_insert', args);
      expect(r.isError, proto).toBe(true);
      expect(r.text).toContain('__proto__');
      expect(r.text).toMatch(/^Input validation error: /);
    }
    expect(repoState(ws)).toEqual(before);
  });
});

describe('tools/call params of the wrong shape are -32602, invalid params', () => {
  it.each([
    ['a string', 'hello'],
    ['an array', [1, 2]],
    ['null', null],
    ['a number', 7],
  ])('arguments that are %s', async (_name, args) => {
    expect(await rpcError({ name: 'canvas_read', arguments: args })).toBe(-32602);
  });

  it('a name that is not a string', async () => {
    expect(await rpcError({ name: 7, arguments: {} })).toBe(-32602);
  });

  it('the server is still up and answers a good call', async () => {
    expect((await leo.read('m1')).base).toBe(base);
  });
});

describe('a message over the transport limit', () => {
  it('is said on stderr and the server exits non-zero (TOO_LARGE)', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'mcp', '--as', 'leo', '--workspace', ws.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.stdout.resume();
    child.stdin.on('error', () => {
      // The server stops reading once the limit is passed.
    });
    const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"canvas_read","arguments":{"ledger":"${'x'.repeat(11 * 1024 * 1024)}`);
    const code = await exit;
    expect(code).toBe(2);
    expect(stderr).toContain('TOO_LARGE');
  });
});
