// The link graph's cache, `.git/canvas-cache/_links.jsonl` (docs/links.md, "Dangling links"): one
// line per canvas keyed by its revision; a line for another revision, a damaged line or a file of
// another format is read again from the repository, never trusted, and the file is put right.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LinkGraphEntry } from '../../../src/store/read/read-link-graph.js';
import { readLinkGraph } from '../../../src/store/read/read-link-graph.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { exampleWorkspace } from '../../site/site-fixture.js';
import { AUTHOR } from '../../helpers/workspace.js';

/** What a caller sees of the graph: node ids asked one by one, links, revision. */
function seen(graph: Map<string, LinkGraphEntry>, ids: Record<string, string[]>) {
  return [...graph].map(([ledger, e]) => ({ ledger, revision: e.revision, links: e.links, has: (ids[ledger] ?? []).map((id) => e.nodes?.has(id) ?? null) }));
}

describe('the link graph cache', () => {
  it('serves current lines, reads again what is stale, damaged or of another format, and rewrites the file', async () => {
    const ws = await exampleWorkspace();
    const path = join(ws.repo, '.git', 'canvas-cache', '_links.jsonl');
    const refs = await listCanvases(ws);
    const ids: Record<string, string[]> = {};
    for (const r of refs) ids[r.ledger] = [...(await readCanvas(ws, { ledger: r.ledger })).xml.matchAll(/ id="([a-z0-9]+)"/g)].map((m) => m[1]!).concat(['zz99']);
    const fresh = seen(await readLinkGraph(ws, refs), ids);
    expect(fresh.flatMap((e) => e.has)).toContain(true);
    expect(fresh.flatMap((e) => e.has)).toContain(false);
    const file = readFileSync(path, 'utf8');
    const lines = file.split('\n');
    expect(lines[0]).toBe('["canvas-links",3]');
    expect(lines.slice(1, -1).map((l) => JSON.parse(l)[0])).toEqual(refs.map((r) => r.ledger));
    // From the cache alone: the same graph, the file untouched.
    expect(seen(await readLinkGraph(ws, refs), ids)).toEqual(fresh);
    expect(readFileSync(path, 'utf8')).toBe(file);
    // A damaged line (its revision still current) is read again, and the file put right.
    writeFileSync(path, file.replace(/^(\["concurrency","[0-9a-f]{40}",").*$/m, '$1 broken'));
    expect(seen(await readLinkGraph(ws, refs), ids)).toEqual(fresh);
    expect(readFileSync(path, 'utf8')).toBe(file);
    // A line that claims other nodes for a revision the canvas no longer has is not used.
    const r = await readCanvas(ws, { ledger: 'projections' });
    const o = await insertNode(ws, { ledger: 'projections', into: 'root', payload: { text: 'a new node' }, base: r.revision, why: 'a node for the cache test', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    const moved = await listCanvases(ws);
    const added = [...(await readCanvas(ws, { ledger: 'projections' })).xml.matchAll(/ id="([a-z0-9]+)"/g)].map((m) => m[1]!).find((id) => !ids.projections!.includes(id))!;
    const graph = await readLinkGraph(ws, moved);
    expect(graph.get('projections')!.nodes!.has(added)).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain(`,"${moved.find((c) => c.ledger === 'projections')!.revision}",`);
    // A file of the earlier format (one JSON object) is not read: every canvas is read again.
    writeFileSync(path, JSON.stringify({ format: 1, entries: { projections: { revision: 'x', nodes: [], links: [] } } }));
    writeFileSync(join(ws.repo, '.git', 'canvas-cache', '_links.json'), '{}');
    expect((await readLinkGraph(ws, moved)).get('projections')!.nodes!.has(added)).toBe(true);
    expect(readFileSync(path, 'utf8').startsWith('["canvas-links",3]\n')).toBe(true);
    expect(existsSync(join(ws.repo, '.git', 'canvas-cache', '_links.json'))).toBe(false);
  });
});
