// Links between canvases in a built site, and the dangling ones that verify and build report
// (docs/links.md), on the example workspace, through the CLI's entry in process.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/store/repo/outcome.js';
import { insertNode, removeNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { byId, classes, elements, parsePage } from '../render/page-claims.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR } from '../helpers/workspace.js';
import { exampleWorkspace } from './site-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const out = () => join(tempDir('canvas-out-'), 'site');

/** The anchors of a page's links to other canvases (the node id tags aside). */
function canvasAnchors(html: string): string[] {
  return elements(parsePage(html))
    .filter((e) => e.el.tagName === 'a' && !classes(e.el).includes('nid') && e.ancestors.some((a) => classes(a).includes('canvas') && classes(a).includes('link')))
    .map((e) => String(e.el.properties.href));
}

function applied(o: Outcome): void {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
}

async function insertLink(ws: Workspace, href: string, label: string): Promise<string> {
  const { revision, canvas } = await readCanvas(ws, { ledger: 'concurrency' });
  const o = await insertNode(ws, {
    ledger: 'concurrency',
    after: canvas.children[0]!.id,
    payload: { xml: `<link href="${href}">${label}</link>` },
    base: revision,
    why: 'a pointer for the test',
    author: AUTHOR,
  });
  applied(o);
  return (o as { node: string }).node;
}

describe('links between canvases in the site', () => {
  it('resolve: each canvas link of a built page points at a page that exists, and at a node on it', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    const r = await runMain(ws, ['build', '--out', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toEqual([]);
    const from = join(dir, 'concurrency', 'index.html');
    const hrefs = canvasAnchors(readFileSync(from, 'utf8'));
    expect(hrefs).toHaveLength(2);
    expect(hrefs[1]).toBe('../node-identity/index.html');
    for (const href of hrefs) {
      const [path, fragment] = href.split('#');
      const target = resolve(dirname(from), path!);
      expect(existsSync(target), href).toBe(true);
      if (fragment !== undefined) expect(byId(parsePage(readFileSync(target, 'utf8')), fragment), href).toBeDefined();
    }
    expect(hrefs[0]).toMatch(/^\.\.\/store-substrate\/index\.html#[a-z][a-z0-9]{3,}$/);
  });

  it('a dangling one is a warning in verify and in build, with the exit code unchanged, and follows the target canvas when only it moves', async () => {
    const ws = await exampleWorkspace();
    const nowhere = await insertLink(ws, 'canvas:nowhere', 'a canvas never made');
    const noNode = await insertLink(ws, 'canvas:node-identity#zz99', 'a node it never had');
    const verify = await runMain(ws, ['verify', '--json']);
    expect(verify.code, verify.stdout).toBe(0);
    const report = JSON.parse(verify.stdout);
    expect(report.ok).toBe(true);
    expect(report.warnings.map((w: { ledger: string; node: string; problem: string }) => [w.ledger, w.node, w.problem])).toEqual([
      ['concurrency', noNode, 'no-node'],
      ['concurrency', nowhere, 'no-canvas'],
    ]);
    const verifyText = await runMain(ws, ['verify']);
    expect(verifyText.code).toBe(0);
    expect(verifyText.stdout).toContain(`warning canvas-link no-canvas: link ${nowhere} of canvas concurrency points at canvas nowhere`);
    expect(verifyText.stdout).toMatch(/: ok\n$/);
    expect(JSON.parse((await runMain(ws, ['verify', 'projections', '--json'])).stdout).warnings).toEqual([]);

    const dir = out();
    const build = await runMain(ws, ['build', '--out', dir, '--json']);
    expect(build.code).toBe(0);
    expect(JSON.parse(build.stdout).warnings).toEqual(report.warnings);
    const buildText = await runMain(ws, ['build', '--out', out()]);
    expect(buildText.code).toBe(0);
    expect(buildText.stderr).toContain(`canvas: warning: no-node: link ${noNode} of canvas concurrency points at node zz99 of canvas node-identity`);
    expect((await runMain(ws, ['build', '--out', out(), '--quiet'])).stderr).toBe('');

    // The store decision goes: concurrency did not move (its page is not rebuilt), but its link
    // to that node now dangles, in the next build as in verify.
    const page = readFileSync(join(dir, 'concurrency', 'index.html'), 'utf8');
    const decision = canvasAnchors(page)
      .find((h) => h.startsWith('../store-substrate/'))!
      .split('#')[1]!;
    const store = await readCanvas(ws, { ledger: 'store-substrate' });
    applied(await removeNode(ws, { ledger: 'store-substrate', node: decision, base: store.revision, why: 'the test takes the decision back', author: AUTHOR }));
    // Even a build of concurrency alone, which finds nothing of it changed, finds the link dangling.
    const alone = JSON.parse((await runMain(ws, ['build', '--out', dir, '--ledger', 'concurrency', '--json'])).stdout);
    expect(alone).toMatchObject({ built: [], unchanged: ['concurrency'] });
    expect(alone.warnings).toContainEqual(expect.objectContaining({ href: `canvas:store-substrate#${decision}`, problem: 'no-node' }));
    const again = JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout);
    expect(again.unchanged).toContain('concurrency');
    const onStore = again.warnings.find((w: { href: string }) => w.href === `canvas:store-substrate#${decision}`);
    expect(onStore).toMatchObject({ ledger: 'concurrency', problem: 'no-node' });
    expect(JSON.parse((await runMain(ws, ['verify', 'concurrency', '--json'])).stdout).warnings).toContainEqual(onStore);
    // Nothing changed since: the same warnings, from the manifest's head, in the same order.
    const still = JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout);
    expect(still.built).toEqual([]);
    expect(still.warnings).toEqual(again.warnings);
    expect(JSON.parse((await runMain(ws, ['build', '--out', dir, '--ledger', 'projections', '--json'])).stdout).warnings).toEqual([]);
  });
});
