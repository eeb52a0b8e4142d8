import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

/** Every file of the CLI bundle that `bin/canvas.js` loads before any command runs (static imports only). */
function staticallyLoaded(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const code = readFileSync(join(ROOT, 'dist', 'cli', file), 'utf8');
    seen.set(file, code);
    for (const m of code.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"/gms)) visit(m[1]!.slice(2));
    for (const m of code.matchAll(/^import\s*"(\.\/[^"]+)"/gm)) visit(m[1]!.slice(2));
  };
  visit(entry);
  return seen;
}

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

  it('exits 0 when the client closes stdin', async () => {
    const ws = tempWorkspace();
    expect(await runCli(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, '')).toMatchObject({ code: 0, stdout: '' });
  });

  it('the other commands never load the MCP SDK or zod: only a lazy import reaches them', () => {
    const loaded = staticallyLoaded('canvas.js');
    expect(loaded.size).toBeGreaterThan(1);
    for (const [file, code] of loaded) {
      expect(code, file).not.toMatch(/from\s*"(@modelcontextprotocol\/sdk|zod)/);
    }
    const lazy = [...readFileSync(join(ROOT, 'dist', 'cli', 'canvas.js'), 'utf8').matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]!);
    expect(lazy.some((f) => f.startsWith('start-mcp-server-'))).toBe(true);
  });
});
