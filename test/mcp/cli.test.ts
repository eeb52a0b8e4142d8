import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBy } from '../helpers/loaded-modules.js';
import { connectAs } from '../helpers/mcp-client.js';
import { runCli, tempWorkspace } from '../helpers/workspace.js';

describe('canvas mcp on the command line', () => {
  it('refuses to start without --as, with a bad who, or without a workspace (exit 2, nothing on stdout)', async () => {
    const ws = tempWorkspace();
    const noAs = await runCli(null, ['mcp', '--workspace', ws.root]);
    expect(noAs.code).toBe(2);
    expect(noAs.stdout).toBe('');
    expect(noAs.stderr).toContain('USAGE');
    const badWho = await runCli(null, ['mcp', '--as', 'eve | step:x', '--workspace', ws.root]);
    expect(badWho).toMatchObject({ code: 2, stdout: '' });
    expect(badWho.stderr).toContain('BAD_AUTHOR');
    const noWs = await runCli(null, ['mcp', '--as', 'eve']);
    expect(noWs).toMatchObject({ code: 2, stdout: '' });
    expect(noWs.stderr).toContain('NO_WORKSPACE');
    const missing = await runCli(null, ['mcp', '--as', 'eve', '--workspace', join(ws.root, 'nope')]);
    expect(missing.stderr).toContain('NO_WORKSPACE');
  });

  it('--quiet keeps the protocol on stdout (it drops notices only)', async () => {
    const ws = tempWorkspace();
    expect((await runCli(ws, ['create', 'loud', '--why', 'a canvas to read over MCP'])).code).toBe(0);
    const session = await connectAs(ws, 'leo', { flags: ['--quiet'] });
    try {
      expect((await session.read('loud')).xml).toContain('<canvas ledger="loud"');
    } finally {
      await session.close();
    }
  });

  it('exits 0 when the client closes stdin', async () => {
    const ws = tempWorkspace();
    expect(await runCli(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, '')).toMatchObject({ code: 0, stdout: '' });
  });

  it('answers every call received before the client closed stdin, then exits 0', async () => {
    const ws = tempWorkspace();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'canvas-test', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'canvas_create', arguments: { workspace: ws.root, ledger: 'late', why: 'sent just before stdin closes' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    ];
    const r = await runCli(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: { structuredContent?: { outcome?: string }; tools?: unknown[] } });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(answers.find((a) => a.id === 2)?.result?.structuredContent?.outcome).toBe('applied');
    expect((await runCli(ws, ['read', 'late'])).code).toBe(0);
  });

  it('the other commands never load the MCP SDK or zod; canvas mcp does', async () => {
    const ws = tempWorkspace();
    const SDK = /\/node_modules\/(@modelcontextprotocol\/(server|core)|zod)\//;
    expect((await runCli(ws, ['create', 'quiet', '--why', 'a canvas to read'])).code).toBe(0);
    for (const args of [
      ['read', 'quiet'],
      ['log', 'quiet'],
      ['render', 'quiet'],
    ]) {
      const r = await loadedBy(ws, args);
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.packages.filter((u) => SDK.test(u)),
        args[0],
      ).toEqual([]);
    }
    const mcp = await loadedBy(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, '');
    expect(mcp.code).toBe(0);
    expect(mcp.packages.some((u) => /\/node_modules\/@modelcontextprotocol\/server\//.test(u))).toBe(true);
  });
});
