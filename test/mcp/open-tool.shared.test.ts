import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { outcomeOf } from '../helpers/mcp-client.js';
import { repoState, tempWorkspace } from '../helpers/workspace.js';

describe('canvas_open over MCP (an SDK client, in process)', () => {
  let ws: Workspace;
  let client: Client;
  const open = async (args: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'canvas_open', arguments: { workspace: ws.root, why: 'the task was opened', ...args } });
    return outcomeOf({ text: JSON.stringify(r.structuredContent), isError: r.isError === true, structured: r.structuredContent as Record<string, unknown> | undefined });
  };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-open-');
    const server = await createMcpServer({ who: 'planner', workspace: ws.root });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'canvas-test', version: '0.0.0' });
    await client.connect(b);
  });

  afterAll(async () => {
    await client.close();
  });

  it('opens from the arguments, from the row, and refuses neither source naming the arguments, not flags', async () => {
    const none = await open({ ledger: 'row-less' });
    expect(none).toMatchObject({ outcome: 'rejected', code: 'USAGE' });
    expect(none.outcome === 'rejected' && none.reason).toMatch(/`problem` and `expectedValue` not given, and there is no ledger row/);
    expect(none.outcome === 'rejected' && `${none.reason} ${none.hint}`).not.toContain('--');
    expect(repoState(ws).refs).toBe('(no repository)');

    expect(await open({ ledger: 'by-args', problem: 'Argued problem.', expectedValue: 'Argued value.', run: 'r1' })).toMatchObject({ outcome: 'applied' });
    mkdirSync(ws.ledgerDir, { recursive: true });
    writeFileSync(join(ws.ledgerDir, 'by-row.json'), JSON.stringify({ problem: 'Row problem.', expectedValue: 'Row value.' }));
    const o = await open({ ledger: 'by-row' });
    expect(o).toMatchObject({ outcome: 'applied', nodes: [expect.any(String), expect.any(String)] });
    const { canvas } = await readCanvas(ws, { ledger: 'by-row' });
    expect(canvas.children.map((n) => (n.type === 'text' ? n.text : ''))).toEqual(['Row problem.', 'Row value.']);

    writeFileSync(join(ws.ledgerDir, 'broken.json'), '{');
    expect(await open({ ledger: 'broken' })).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ROW', data: { path: join(ws.ledgerDir, 'broken.json') } });
  });
});
