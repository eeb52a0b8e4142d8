// The caches under .git/canvas-cache/ that are not one canvas's (the list's, the link graph's) are
// named so that no ledger id can take their name (docs/store.md, "Derived facts cache"): verify
// reads them as no canvas's facts, and a canvas named `list` or `links` keeps its own.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { listCanvasEntries } from '../../../src/store/read/list-canvas-entries.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { readLinkGraph } from '../../../src/store/read/read-link-graph.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

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

  it('keep a canvas whose ledger id ends in .tree apart from the tree cache of the canvas without it', async () => {
    const ws = tempWorkspace();
    for (const ledger of ['plan.tree', 'plan']) expect((await createCanvas(ws, { ledger, why: 'a canvas', author: AUTHOR })).outcome).toBe('applied');
    // A write to plan saves plan's parsed tree; it must not land on plan.tree's facts cache.
    const r = await readCanvas(ws, { ledger: 'plan' });
    expect((await insertNode(ws, { ledger: 'plan', base: r.revision, into: 'root', payload: { text: 'a text' }, why: 'a write', author: AUTHOR })).outcome).toBe('applied');
    const factsPath = join(ws.repo, '.git', 'canvas-cache', 'plan.tree.json');
    const facts = JSON.parse(readFileSync(factsPath, 'utf8')) as Record<string, unknown>;
    expect(facts).not.toHaveProperty('canvas');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
    // And verify checks plan.tree's facts cache like any other: a forged creator is caught.
    writeFileSync(factsPath, JSON.stringify({ ...facts, creator: 'someone-else' }));
    expect((await verifyWorkspace(ws)).violations.map((v) => v.rule)).toContain('cache');
  });

  it('a tree cache of the earlier layout (<ledger>.tree.json) is no canvas’s facts: verify stays green and removes it', async () => {
    const ws = tempWorkspace();
    expect((await createCanvas(ws, { ledger: 'plan', why: 'a canvas', author: AUTHOR })).outcome).toBe('applied');
    const r = await readCanvas(ws, { ledger: 'plan' });
    const legacy = join(ws.repo, '.git', 'canvas-cache', 'plan.tree.json');
    writeFileSync(legacy, JSON.stringify({ blob: 'a'.repeat(40), canvas: r.canvas }));
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
    expect(existsSync(legacy)).toBe(false);
  });
});
