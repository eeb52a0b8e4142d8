// canvas edges (docs/links.md, "Edges"): the store function, the CLI (through its entry in
// process) and its refusals, on the example workspace with links added between its canvases.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whoOf } from '../../../src/store/repo/canvas-commit.js';
import { canvasEdges } from '../../../src/store/read/canvas-edges.js';
import { canvasLog } from '../../../src/store/read/canvas-log.js';
import { listWatchers } from '../../../src/store/watch/list-watchers.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { canvasErrorOf } from '../../helpers/canvas-error-of.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, repoState } from '../../helpers/workspace.js';
import { exampleWorkspace } from '../../site/site-fixture.js';

async function insertLink(ws: Workspace, ledger: string, href: string, author = AUTHOR): Promise<string> {
  const { revision, canvas } = await readCanvas(ws, { ledger });
  const o: Outcome = await insertNode(ws, { ledger, after: canvas.children[0]!.id, payload: { xml: `<link href="${href}">to ${href}</link>` }, base: revision, why: 'a pointer for the test', author });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o.node!;
}

/** Let ana edit a canvas (granted by its owner, leo). */
async function grantAna(ws: Workspace, ledger: string): Promise<void> {
  const r = await runMain(ws, ['grant', ledger, 'ana', 'editor', '--why', 'ana writes here for the test']);
  if (r.code !== 0) throw new Error(r.stderr);
}

/** Each who of a canvas's log with its count and latest commit, the latest first: what edges must say. */
async function actorsFromLog(ws: Workspace, ledger: string): Promise<Array<{ who: string; acts: number; last: string }>> {
  const out = new Map<string, { who: string; acts: number; last: string }>();
  for (const c of await canvasLog(ws, { ledger })) {
    const who = whoOf(c.author);
    const seen = out.get(who);
    out.set(who, { who, acts: (seen?.acts ?? 0) + 1, last: seen?.last ?? c.commit });
  }
  return [...out.values()];
}

describe('canvas edges', () => {
  it('shows what a canvas links to, what links to it, who acted on it, from the current revision of every canvas', async () => {
    const ws = await exampleWorkspace();
    const { canvas } = await readCanvas(ws, { ledger: 'concurrency' });
    const question = canvas.children.flatMap((n) => (n.type === 'section' ? n.children : [n])).find((n) => n.type === 'question')!.id;
    const toQuestion = await insertLink(ws, 'projections', `canvas:concurrency#${question}`);
    await grantAna(ws, 'projections');
    const toNothing = await insertLink(ws, 'projections', 'canvas:concurrency#zz99', 'ana');
    const toItself = await insertLink(ws, 'concurrency', `canvas:concurrency#${question}`);
    expect((await runMain(ws, ['watch', 'concurrency', '--author', 'cam'])).code).toBe(0);

    const e = await canvasEdges(ws, 'concurrency');
    expect(e.revision).toBe((await readCanvas(ws, { ledger: 'concurrency' })).revision);
    expect(e.linksTo.map((l) => [l.kind, l.target, l.problem])).toEqual([
      ['canvas', { ledger: 'concurrency', node: question }, undefined],
      ['canvas', { ledger: 'store-substrate', node: expect.stringMatching(/^[a-z][a-z0-9]{3,}$/) }, undefined],
      ['canvas', { ledger: 'node-identity', node: null }, undefined],
    ]);
    expect(e.linksTo[0]!.node).toBe(toItself);
    expect(e.linkedFrom).toEqual([
      { ledger: 'projections', node: toNothing, href: 'canvas:concurrency#zz99', label: 'to canvas:concurrency#zz99', target: { ledger: 'concurrency', node: 'zz99' }, problem: 'no-node' },
      { ledger: 'projections', node: toQuestion, href: `canvas:concurrency#${question}`, label: `to canvas:concurrency#${question}`, target: { ledger: 'concurrency', node: question } },
    ]);
    expect(e.actors.map((a) => ({ who: a.who, acts: a.acts, last: a.last.commit }))).toEqual(await actorsFromLog(ws, 'concurrency'));
    // Who watches it: the writers (a write makes its author a watcher) and cam, who asked to.
    expect(e.watchers).toEqual(await listWatchers(ws, 'concurrency'));
    expect(e.watchers.map((w) => w.who)).toEqual(['cam', 'leo', 'planner']);
    expect(e.actors[0]).toMatchObject({ who: 'leo', last: { op: 'insert', node: toItself, reason: 'a pointer for the test', author: AUTHOR } });
    // What links to store-substrate: concurrency's pointer at its decision.
    expect((await canvasEdges(ws, 'store-substrate')).linkedFrom.map((l) => l.ledger)).toEqual(['concurrency']);
    const projections = await canvasEdges(ws, 'projections');
    expect(projections.actors.find((a) => a.who === 'ana')).toMatchObject({ acts: 1, last: { node: toNothing } });

    // The CLI prints the same object with --json, and lines without.
    const json = await runMain(ws, ['edges', 'concurrency', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(e)));
    const text = await runMain(ws, ['edges', 'projections']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`  ${toNothing}  canvas concurrency, node zz99 (no such node)  to canvas:concurrency#zz99\n`);
    expect(text.stdout).toContain('linked from (0): none\n');
    expect((await runMain(ws, ['edges', 'concurrency'])).stdout).toMatch(/\nwatched by \(3\):\n {2}cam {2}since \S+\n {2}leo {2}since \S+\n {2}planner {2}since \S+\n$/);
  });

  it('folds only the newer commits into its cached actors, and ignores a cache whose revision is not on the chain', async () => {
    const ws = await exampleWorkspace();
    await grantAna(ws, 'node-identity');
    const before = await canvasEdges(ws, 'node-identity');
    await insertLink(ws, 'node-identity', 'https://example.com/ids', 'ana');
    const after = await canvasEdges(ws, 'node-identity');
    expect(after.actors.map((a) => [a.who, a.acts])).toEqual([['ana', 1], ...before.actors.map((a) => [a.who, a.acts])]);
    expect(after.actors).toEqual((await actorsFromLog(ws, 'node-identity')).map((a) => expect.objectContaining({ who: a.who, acts: a.acts })));
    // A cache that claims another revision, with counts that never were, is not used.
    const path = join(ws.repo, '.git', 'canvas-cache', 'actors', 'node-identity.json');
    const cache = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...cache, revision: 'f'.repeat(40), actors: cache.actors.map((a: { acts: number }) => ({ ...a, acts: a.acts + 100 })) }));
    await insertLink(ws, 'node-identity', 'https://example.com/ids-2', 'ana');
    expect((await canvasEdges(ws, 'node-identity')).actors.map((a) => [a.who, a.acts])).toEqual([['ana', 2], ...before.actors.map((a) => [a.who, a.acts])]);
  });

  it('refuses an unknown ledger and a ledger id that is not one, writing nothing', async () => {
    const ws = await exampleWorkspace();
    const state = repoState(ws);
    expect((await canvasErrorOf(canvasEdges(ws, 'nowhere'))).code).toBe('CANVAS_NOT_FOUND');
    const cli = await runMain(ws, ['edges', 'nowhere', '--json']);
    expect(cli.code).toBe(2);
    expect(JSON.parse(cli.stdout).error.code).toBe('CANVAS_NOT_FOUND');
    const bad = await runMain(ws, ['edges', 'Not/A-Ledger']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('BAD_LEDGER_ID');
    expect(repoState(ws)).toEqual(state);
  });
});
