import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whoOfAgentToken } from '../../src/store/index.js';
import { runMain } from '../helpers/run-main.js';
import { tempWorkspace } from '../helpers/workspace.js';

// canvas token add|list|revoke (docs/mcp.md, "Over HTTP").

describe('canvas token', () => {
  it('add prints the token once and keeps only its hash, private, under .git; list and revoke by who or id', async () => {
    const ws = tempWorkspace();
    const added = await runMain(ws, ['token', 'add', 'planner', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const { id, who, token } = JSON.parse(added.stdout) as { id: string; who: string; token: string };
    expect(who).toBe('planner');
    expect(token).toMatch(new RegExp(`^canvas_${id}_[A-Za-z0-9_-]{43}$`));
    const file = join(ws.repo, '.git', 'canvas-tokens.json');
    expect(readFileSync(file, 'utf8')).not.toContain(token.slice(17));
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(whoOfAgentToken(ws, token)).toBe('planner');
    expect(whoOfAgentToken(ws, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();

    const second = JSON.parse((await runMain(ws, ['token', 'add', 'planner', '--json'])).stdout) as { id: string; token: string };
    await runMain(ws, ['token', 'add', 'reviewer']);
    const list = JSON.parse((await runMain(ws, ['token', 'list', '--json'])).stdout) as { tokens: Array<Record<string, string>> };
    expect(list.tokens.map((t) => [t.id, t.who])).toEqual([
      [id, 'planner'],
      [second.id, 'planner'],
      [expect.any(String), 'reviewer'],
    ]);
    expect(JSON.stringify(list)).not.toMatch(/hash|canvas_/);

    const byId = await runMain(ws, ['token', 'revoke', id]);
    expect(byId.stdout).toBe(`revoked token ${id} of planner\n`);
    expect(whoOfAgentToken(ws, token)).toBeNull();
    expect(whoOfAgentToken(ws, second.token)).toBe('planner');
    const byWho = JSON.parse((await runMain(ws, ['token', 'revoke', 'planner', '--json'])).stdout) as { revoked: unknown[] };
    expect(byWho.revoked).toHaveLength(1);
    expect(whoOfAgentToken(ws, second.token)).toBeNull();
  });

  it('refuses a bad who, an unknown token and a wrong action, changing nothing', async () => {
    const ws = tempWorkspace();
    const bad = await runMain(ws, ['token', 'add', 'no body']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('BAD_AUTHOR')]);
    const unknown = await runMain(ws, ['token', 'revoke', 'nobody']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('TOKEN_NOT_FOUND')]);
    const usage = await runMain(ws, ['token', 'show']);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('USAGE')]);
    expect((await runMain(ws, ['token', 'list'])).stdout).toBe('no agent tokens: canvas token add <who>\n');
  });
});
