import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { canvasEdges } from '../../src/store/read/canvas-edges.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { repoState, tempWorkspace } from '../helpers/workspace.js';

// canvas_edges over the store's canvasEdges (docs/links.md, "Edges"): the same object as the
// library and `canvas edges --json`, validated against its output schema by the client.
describe('canvas_edges over MCP', () => {
  let ws: Workspace;
  let leo: McpSession;
  let zed: McpSession;
  let decision: string;
  let pointer: string;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-edges-');
    const b = (await openCanvas(ws, { ledger: 'store', problem: 'Where does the canvas live?', expectedValue: 'One git repository.', why: 'a task', author: 'leo' })) as Applied;
    decision = b.nodes![1]!;
    const a = (await openCanvas(ws, { ledger: 'locks', problem: 'Writers race.', expectedValue: 'One lock per write.', why: 'another task', author: 'leo' })) as Applied;
    const linked = (await insertNode(ws, {
      ledger: 'locks',
      after: a.nodes![1]!,
      payload: { xml: `<link href="canvas:store#${decision}">the store decision</link>` },
      base: a.revision,
      why: 'the lock guards that repository',
      author: 'leo',
    })) as Applied;
    pointer = linked.node!;
    [leo, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'zed')]);
  });

  afterAll(async () => {
    await Promise.all([leo?.close(), zed?.close()]);
  });

  it('answers the edges as structured content that the schema accepts, equal to the library and the text', async () => {
    const r = await leo.call('canvas_edges', { workspace: ws.root, ledger: 'store' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toEqual(JSON.parse(JSON.stringify(await canvasEdges(ws, 'store'))));
    expect(r.structured!.linkedFrom).toEqual([{ ledger: 'locks', node: pointer, href: `canvas:store#${decision}`, label: 'the store decision', target: { ledger: 'store', node: decision } }]);
    const locks = (await leo.call('canvas_edges', { workspace: ws.root, ledger: 'locks' })).structured as { linksTo: unknown[]; actors: Array<{ who: string; acts: number }> };
    expect(locks.linksTo).toEqual([{ node: pointer, href: `canvas:store#${decision}`, label: 'the store decision', kind: 'canvas', target: { ledger: 'store', node: decision } }]);
    expect(locks.actors.map((a) => [a.who, a.acts])).toEqual([['leo', 4]]);
  });

  it('refuses a caller with no role and an unknown canvas with the error shape, writing nothing', async () => {
    const before = repoState(ws);
    expect((await zed.error('canvas_edges', { workspace: ws.root, ledger: 'store' })).code).toBe('NO_ROLE');
    expect((await leo.error('canvas_edges', { workspace: ws.root, ledger: 'nowhere' })).code).toBe('CANVAS_NOT_FOUND');
    expect(repoState(ws)).toEqual(before);
  });
});
