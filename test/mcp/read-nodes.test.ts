import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readNodes } from '../../src/store/read/read-nodes.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

describe('readNodes: the filtered read canvas read --id/--type and canvas_read share', () => {
  let ws: Workspace;
  let leo: McpSession;
  let section = '';
  let text = '';
  let revision = '';

  beforeAll(async () => {
    ws = tempWorkspace('canvas-read-nodes-');
    const c = (await createCanvas(ws, { ledger: 'r', why: 'filters', author: 'leo' })) as Applied;
    const s = (await insertNode(ws, { ledger: 'r', into: 'root', payload: { section: 'Notes' }, base: c.revision, why: 'a section', author: 'leo' })) as Applied;
    const t = (await insertNode(ws, { ledger: 'r', into: s.node!, payload: { text: 'Draft.' }, base: s.revision, why: 'a draft', author: 'leo' })) as Applied;
    [section, text, revision] = [s.node!, t.node!, t.revision];
    leo = await connectAs(ws, 'leo');
  });

  afterAll(async () => {
    await leo.close();
  });

  it('keeps the nodes whose id is asked and whose type is asked, in document order', async () => {
    const all = await readNodes(ws, { ledger: 'r', types: ['section', 'text'] });
    expect(all.revision).toBe(revision);
    expect(all.nodes.map((n) => [n.id, n.type, n.parent])).toEqual([
      [section, 'section', 'root'],
      [text, 'text', section],
    ]);
    expect((await readNodes(ws, { ledger: 'r', ids: [text, section], types: ['text'] })).nodes.map((n) => n.id)).toEqual([text]);
  });

  it('the CLI and the MCP server print the same filtered read', async () => {
    const cli = await runCli(ws, ['read', 'r', '--type', 'text']);
    expect(cli.code).toBe(0);
    const mcp = (await leo.call('canvas_read', { workspace: ws.root, ledger: 'r', type: ['text'] })).structured as { revision: string; nodes: Array<{ id: string; xml: string }> };
    // The nodes alone: their XML is said once, in each node.
    expect(mcp).not.toHaveProperty('xml');
    expect(`Canvas-Base: ${mcp.revision}\n${mcp.nodes.map((n) => n.xml).join('')}`).toBe(cli.stdout);
    expect(mcp.nodes).toEqual((await readNodes(ws, { ledger: 'r', ids: [text] })).nodes);
  });

  it('an id not in the canvas is NODE_NOT_FOUND on both edges, and nothing is written', async () => {
    const before = repoState(ws);
    await expect(readNodes(ws, { ledger: 'r', ids: ['zz9'] })).rejects.toMatchObject({ code: 'NODE_NOT_FOUND', data: { missing: ['zz9'] } });
    expect((await leo.error('canvas_read', { workspace: ws.root, ledger: 'r', id: ['zz9'] })).code).toBe('NODE_NOT_FOUND');
    expect(repoState(ws)).toEqual(before);
  });
});
