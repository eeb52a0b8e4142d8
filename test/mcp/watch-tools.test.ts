import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/access-writes.js';
import { createCanvas } from '../../src/store/canvas-lifecycle.js';
import { listWatchers } from '../../src/store/list-watchers.js';
import type { Applied } from '../../src/store/outcome.js';
import { readWatch } from '../../src/store/watch-files.js';
import type { Workspace } from '../../src/store/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

// Watching over MCP (docs/store.md, "Watches and the inbox"), with a real SDK client.

describe('watches over MCP', () => {
  let ws: Workspace;
  let ana: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-watch-');
    await createCanvas(ws, { ledger: 'm1', why: 'a canvas to watch', author: 'leo' });
    await grantRole(ws, { ledger: 'm1', who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' });
    ana = await connectAs(ws, 'ana');
  });

  afterAll(async () => {
    await ana.close();
  });

  it('canvas_read makes the caller a watcher, with the cursor at the revision read', async () => {
    expect((await listWatchers(ws, 'm1')).map((w) => w.who)).toEqual(['leo']);
    const { base } = await ana.read('m1');
    expect((await listWatchers(ws, 'm1')).map((w) => w.who)).toEqual(['ana', 'leo']);
    expect(readWatch(ws, 'ana', 'm1')?.cursor).toBe(base);
  });

  it('a write over MCP makes its author a watcher as well', async () => {
    const c = (await grantRole(ws, { ledger: 'm1', who: 'bo', role: 'editor', why: 'bo edits', author: 'leo' })) as Applied;
    const bo = await connectAs(ws, 'bo');
    try {
      const r = (await bo.write('canvas_insert', { workspace: ws.root, ledger: 'm1', into: 'root', text: 'Bo was here.', base: c.revision, why: 'a note' })) as Applied;
      expect(r.outcome).toBe('applied');
      expect(readWatch(ws, 'bo', 'm1')?.cursor).toBe(r.revision);
    } finally {
      await bo.close();
    }
  });
});
