// canvas_search over MCP (docs/mcp.md "The tools", docs/search.md), with real SDK clients of
// `canvas mcp`: the result validates against the tool's output schema (the client checks it, and
// so does the schema here), only the canvases the caller holds a role on are searched, a hit's
// revision is the base of a write, and a refusal speaks of the tool's arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { SearchResponse } from '../../src/store/search/search-canvases.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

describe('canvas_search over MCP', () => {
  let ws: Workspace;
  let leo: McpSession;
  let zed: McpSession;
  const nodes: Record<string, string> = {};

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-search-');
    for (const [ledger, problem] of [
      ['gateway', 'The gateway drops idle sockets after 30 s.'],
      ['payroll', 'Payroll exports miss idle sockets of the night run.'],
    ] as const) {
      const o = await openCanvas(ws, { ledger, problem, expectedValue: 'Nothing dropped.', why: 'opened', author: 'leo' });
      if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
      nodes[ledger] = o.nodes![0]!;
    }
    [leo, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'zed')]);
  });

  afterAll(async () => {
    await Promise.all([leo?.close(), zed?.close()]);
  });

  const search = async (s: McpSession, args: Record<string, unknown>): Promise<SearchResponse> => {
    const r = await s.call('canvas_search', { workspace: ws.root, ...args });
    expect(r.isError, r.text).toBe(false);
    return r.structured as unknown as SearchResponse;
  };

  it('answers hits that validate against the output schema, searching only what the caller may read', async () => {
    const all = await search(leo, { query: 'idle sockets' });
    expect(all.hits.map((h) => [h.ledger, h.node, h.type, h.phrase]).sort()).toEqual([
      ['gateway', nodes.gateway, 'text', true],
      ['payroll', nodes.payroll, 'text', true],
    ]);
    expect(all).toMatchObject({ total: 2, canvases: 2 });
    expect(all.hits[0]!.snippet).toContain('**idle sockets**');

    // zed holds no role anywhere: nothing is searched, nothing is told.
    expect(await search(zed, { query: 'idle sockets' })).toMatchObject({ total: 0, canvases: 0, hits: [], failures: [] });
    await grantRole(ws, { ledger: 'payroll', who: 'zed', role: 'viewer', why: 'zed audits payroll', author: 'leo' });
    const some = await search(zed, { query: 'idle sockets' });
    expect(some).toMatchObject({ total: 1, canvases: 1 });
    expect(some.hits.map((h) => h.ledger)).toEqual(['payroll']);
    // Naming a canvas it may not read is NO_ROLE, as canvas_read's is.
    expect((await zed.error('canvas_search', { workspace: ws.root, query: 'idle', ledger: 'gateway' })).code).toBe('NO_ROLE');
    expect((await search(zed, { query: 'idle', ledger: 'payroll', type: ['text'], limit: 1 })).hits).toHaveLength(1);
  });

  it("a hit's revision is the base canvas_replace takes", async () => {
    const [hit] = (await search(leo, { query: 'gateway drops' })).hits;
    expect(hit).toMatchObject({ ledger: 'gateway', node: nodes.gateway });
    const o = await leo.write('canvas_replace', { workspace: ws.root, ledger: 'gateway', node: hit!.node, text: 'The gateway drops idle sockets after 60 s.', base: hit!.revision, why: 'measured again' });
    expect(o).toMatchObject({ outcome: 'applied', node: hit!.node });
    const again = await search(leo, { query: 'after 60' });
    expect(again).toMatchObject({ total: 1, indexed: 1 });
    expect(again.hits[0]!.revision).toBe(o.outcome === 'applied' ? o.revision : '');
  });

  it('refuses a query with no word in the error shape, with a hint naming the argument and no flag', async () => {
    for (const query of ['', '  ', '…!']) {
      const e = await leo.error('canvas_search', { workspace: ws.root, query });
      expect(e.code).toBe('USAGE');
      expect(`${e.message} ${e.hint}`).not.toContain('--');
      expect(e.hint).toContain('`query`');
    }
    expect((await leo.error('canvas_search', { workspace: ws.root, query: 'x', ledger: 'no-such' })).code).toBe('CANVAS_NOT_FOUND');
  });
});
