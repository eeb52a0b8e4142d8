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
    const session = await connectAs(ws, 'leo', ws.root, ['--quiet']);
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

  it('the other commands never load the MCP SDK or zod; canvas mcp does', async () => {
    const ws = tempWorkspace();
    const SDK = /\/node_modules\/(@modelcontextprotocol\/sdk|zod)\//;
    expect((await runCli(ws, ['create', 'quiet', '--why', 'a canvas to read'])).code).toBe(0);
    for (const args of [['read', 'quiet'], ['log', 'quiet'], ['render', 'quiet']]) {
      const r = await loadedBy(ws, args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.packages.filter((u) => SDK.test(u)), args[0]).toEqual([]);
    }
    const mcp = await loadedBy(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, '');
    expect(mcp.code).toBe(0);
    expect(mcp.packages.some((u) => /\/node_modules\/@modelcontextprotocol\/sdk\//.test(u))).toBe(true);
  });
});
