// The caches under .git/canvas-cache/ that are not one canvas's (the list's, the link graph's) are
// named so that no ledger id can take their name (docs/store.md, "Derived facts cache"): verify
// reads them as no canvas's facts, and a canvas named `list` or `links` keeps its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/canvas-lifecycle.js';
import { listCanvasEntries } from '../../src/store/list-canvas-entries.js';
import { listCanvases } from '../../src/store/list-canvases.js';
import { readLinkGraph } from '../../src/store/read-link-graph.js';
import { verifyWorkspace } from '../../src/store/verify-workspace.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';

describe('the workspace-wide caches', () => {
  it('leave verify green and every canvas its own facts cache, canvases named list and links included', async () => {
    const ws = tempWorkspace();
    for (const ledger of ['list', 'links', 'plan']) expect((await createCanvas(ws, { ledger, why: 'a canvas', author: AUTHOR })).outcome).toBe('applied');
    const facts = (ledger: string) => JSON.parse(readFileSync(join(ws.repo, '.git', 'canvas-cache', `${ledger}.json`), 'utf8')) as Record<string, unknown>;
    const before = { list: facts('list'), links: facts('links') };
    await listCanvasEntries(ws);
    await readLinkGraph(ws, await listCanvases(ws));
    expect({ list: facts('list'), links: facts('links') }).toEqual(before);
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
