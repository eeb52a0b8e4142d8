// canvas build through the CLI's entry in process; the first test builds twice as real processes,
// for the streams of a build in a pipe and the same bytes from two processes, and a failed build
// runs as one for its exit code.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromHtml } from 'hast-util-from-html';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../src/site/build-site.js';
import { loadRenderers } from '../../src/site/load-renderers.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { loadedBy, matching } from '../helpers/loaded-modules.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, repoState, runCli } from '../helpers/workspace.js';
import { exampleWorkspace, manifestParts, siteTree } from './site-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const tree = (dir: string) => siteTree(dir, 'utf8');

const out = () => join(tempDir('canvas-out-'), 'site');

describe('canvas build', () => {
  it('writes every canvas page, comment and prompt and an index; identical input gives identical bytes', async () => {
    const ws = await exampleWorkspace();
    const [a, b] = [out(), out()];
    const first = await runCli(ws, ['build', '--out', a]);
    expect(first.code, first.stderr).toBe(0);
    // No progress bar in a pipe.
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('built 4, unchanged 0, failed 0');
    expect((await runCli(ws, ['build', '--out', b])).code).toBe(0);
    const files = tree(a);
    expect(Object.keys(files).sort()).toEqual(
      ['.canvas-build.json', 'index.html', ...['concurrency', 'node-identity', 'projections', 'store-substrate'].flatMap((l) => [`${l}/comment.md`, `${l}/index.html`, `${l}/prompt.txt`])].sort(),
    );
    expect(tree(b)).toEqual(files);
    // The index lists every canvas with a link, its open questions and the frozen one.
    const index = fromHtml(files['index.html']!);
    const links: string[] = [];
    const visit = (n: { type: string; tagName?: string; properties?: Record<string, unknown>; children?: unknown[] }) => {
      if (n.type === 'element' && n.tagName === 'a') links.push(String(n.properties?.href));
      for (const c of (n.children ?? []) as (typeof n)[]) visit(c);
    };
    visit(index as never);
    // The desk's links (to each open question and its canvas) come first, then one per canvas row.
    const rows = links.slice(links.lastIndexOf('concurrency/index.html'));
    expect(rows).toEqual(['concurrency/index.html', 'node-identity/index.html', 'projections/index.html', 'store-substrate/index.html']);
    expect(links.slice(0, links.length - rows.length).every((l) => /^[a-z-]+\/index\.html(#[a-z0-9]+)?$/.test(l))).toBe(true);
    expect(files['index.html']).toContain('<section id="desk"');
    expect(files['index.html']).toContain('frozen');
    // Every page and the index validate; every comment is Markdown without raw HTML.
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    for (const [name, text] of Object.entries(files)) {
      if (name.endsWith('.html')) {
        const report = await validator.validateString(text, name);
        expect(report.results.flatMap((r) => r.messages.map((m) => `${name} ${m.ruleId} ${m.message}`))).toEqual([]);
      }
      if (name.endsWith('.md')) {
        const md = fromMarkdown(text);
        expect(JSON.stringify(md)).not.toContain('"type":"html"');
      }
    }
  });

  it('is incremental: an unchanged canvas is not rendered again; one edit rebuilds one canvas and the index', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    expect((await runMain(ws, ['build', '--out', dir])).code).toBe(0);
    const before = tree(dir);
    const again = await runMain(ws, ['build', '--out', dir, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ built: [], failed: [] });
    expect(JSON.parse(again.stdout).unchanged).toHaveLength(4);
    const r = await readCanvas(ws, { ledger: 'concurrency' });
    const text = [...r.xml.matchAll(/<text id="([a-z0-9]+)"/g)][0]![1]!;
    expect((await replaceNode(ws, { ledger: 'concurrency', node: text, payload: { text: 'Edited for the build test.' }, base: r.revision, why: 'an edit', author: AUTHOR })).outcome).toBe('applied');
    const third = JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout);
    expect(third.built).toEqual(['concurrency']);
    expect(third.unchanged.sort()).toEqual(['node-identity', 'projections', 'store-substrate']);
    const after = tree(dir);
    const changed = Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .sort();
    expect(changed).toEqual(['.canvas-build.json', 'concurrency/comment.md', 'concurrency/index.html', 'concurrency/prompt.txt', 'index.html']);
    // The index joined from the manifest's rows is the one a build from nothing renders.
    const fresh = out();
    expect((await runMain(ws, ['build', '--out', fresh])).code).toBe(0);
    expect(after['index.html']).toBe(tree(fresh)['index.html']);
  });

  it('trusts the manifest for an unchanged canvas; --verify-output catches a tampered or removed output and rebuilds it', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    expect((await runMain(ws, ['build', '--out', dir])).code).toBe(0);
    const before = tree(dir);
    writeFileSync(join(dir, 'projections', 'comment.md'), `${before['projections/comment.md']}tampered\n`);
    execFileSync('rm', [join(dir, 'node-identity', 'index.html')]);
    writeFileSync(join(dir, 'index.html'), 'tampered\n');
    // Trusted: the revision and the renderers did not move, so nothing is read, rendered or written.
    const trusted = JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout);
    expect(trusted).toMatchObject({ built: [], failed: [] });
    expect(tree(dir)['projections/comment.md']).toContain('tampered');
    const verified = await runMain(ws, ['build', '--out', dir, '--json', '--verify-output']);
    expect(verified.code, verified.stderr).toBe(0);
    const report = JSON.parse(verified.stdout);
    expect(report.built.sort()).toEqual(['node-identity', 'projections']);
    expect(report.unchanged.sort()).toEqual(['concurrency', 'store-substrate']);
    expect(tree(dir)).toEqual(before);
    // Verified and unchanged: nothing more to rebuild.
    expect(JSON.parse((await runMain(ws, ['build', '--out', dir, '--json', '--verify-output'])).stdout).built).toEqual([]);
    // A row edited in the manifest is trusted by a build, and rendered again under --verify-output.
    const { manifest } = manifestParts(before['.canvas-build.json']!);
    manifest.entries.projections!.row = '<tr><td>tampered</td></tr>';
    writeFileSync(join(dir, '.canvas-build.json'), `${JSON.stringify(manifest)}\n`);
    expect(JSON.parse((await runMain(ws, ['build', '--out', dir, '--json', '--verify-output'])).stdout)).toMatchObject({ built: [], failed: [] });
    expect(tree(dir)).toEqual(before);
  });

  it("finds that nothing changed from the manifest's head alone, and still reads a manifest of one line", async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    expect((await runMain(ws, ['build', '--out', dir])).code).toBe(0);
    const before = tree(dir);
    const { head, manifest } = manifestParts(before['.canvas-build.json']!);
    expect(head).toEqual({
      renderer: manifest.renderer,
      revisions: Object.entries(manifest.entries).map(([ledger, e]) => [ledger, e.revision]),
      index: manifest.index,
      links: expect.stringMatching(/^[0-9a-f]{16}$/),
      warnings: [],
    });
    // The entries are not read when nothing changed: a build trusts them, as it trusts the pages.
    const [first] = before['.canvas-build.json']!.split('\n');
    writeFileSync(join(dir, '.canvas-build.json'), `${first}\nnot the entries\n`);
    expect(JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout)).toMatchObject({ built: [], unchanged: ['concurrency', 'node-identity', 'projections', 'store-substrate'], failed: [] });
    // --verify-output reads them, and refuses a manifest the build did not write, writing nothing.
    const refused = await runMain(ws, ['build', '--out', dir, '--json', '--verify-output']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error.code).toBe('BAD_OUT_DIR');
    expect(tree(dir)['.canvas-build.json']).toBe(`${first}\nnot the entries\n`);
    // A manifest of one line (a build before the head): read, and given its head by the next build.
    writeFileSync(join(dir, '.canvas-build.json'), `${JSON.stringify(manifest)}\n`);
    expect(JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout)).toMatchObject({ built: [], failed: [] });
    expect(tree(dir)).toEqual(before);
  });

  it('a build that finds nothing changed loads no renderer and not the lazy bundle', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    expect((await runCli(ws, ['build', '--out', dir])).code).toBe(0);
    const r = await loadedBy(ws, ['build', '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('built 0, unchanged 4, failed 0');
    expect([...r.bundles].sort()).toEqual(['canvas.cjs', 'start.cjs']);
    expect(matching(r.modules, /^(node_modules\/(hast|mdast)|src\/render\/(html\/render-|comment\/|text\/))/)).toEqual([]);
  });

  it('reports a bad canvas, builds the rest, and exits 8, its own code (1 is an internal error)', async () => {
    const ws = await exampleWorkspace();
    // A canvas ref pointing at a commit written outside the tool, holding XML the schema refuses.
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], '<canvas ledger="broken" schema="2"><div>no</div></canvas>\n');
    const treeSha = git(['mktree'], `100644 blob ${blob}\tbroken.xml\n`);
    const commit = git(['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit-tree', treeSha, '-m', 'outside'], undefined);
    git(['update-ref', 'refs/canvas/broken', commit]);
    const dir = out();
    const r = await runCli(ws, ['build', '--out', dir]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('BUILD_FAILED');
    expect(r.stderr).toContain('broken');
    const files = tree(dir);
    expect(files['store-substrate/index.html']).toBeDefined();
    expect(files['broken/index.html']).toBeUndefined();
    const json = await runMain(ws, ['build', '--out', out(), '--json']);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout).failed).toEqual([expect.objectContaining({ ledger: 'broken', code: 'SCHEMA' })]);
  });

  it('refuses an --out that is a file or lies inside the canvas repository, writing nothing', async () => {
    const ws = await exampleWorkspace();
    writeFileSync(join(ws.root, 'state', 'ledger-note.txt'), 'a file\n');
    const before = repoState(ws);
    const file = await runMain(ws, ['build', '--json', '--out', join(ws.root, 'state', 'ledger-note.txt')]);
    expect(file.code).toBe(2);
    expect(JSON.parse(file.stdout).error.code).toBe('BAD_OUT_DIR');
    const canvasFile = await runMain(ws, ['build', '--json', '--out', join(ws.repo, 'store-substrate.xml')]);
    expect(canvasFile.code).toBe(2);
    expect(JSON.parse(canvasFile.stdout).error.code).toBe('OUTPUT_IN_REPOSITORY');
    const inside = await runMain(ws, ['build', '--json', '--out', join(ws.repo, 'site')]);
    expect(inside.code).toBe(2);
    expect(JSON.parse(inside.stdout).error.code).toBe('OUTPUT_IN_REPOSITORY');
    const badLedger = await runMain(ws, ['build', '--json', '--out', out(), '--ledger', '../x']);
    expect(JSON.parse(badLedger.stdout).error.code).toBe('BAD_LEDGER_ID');
    expect(repoState(ws)).toEqual(before);
  });

  it('--ledger after a renderer change: the index still lists every canvas built so far, and the next build rebuilds the others', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    expect((await runMain(ws, ['build', '--out', dir])).code).toBe(0);
    // As if the site had been built by other renderers (an older canvas).
    const { manifest } = manifestParts(tree(dir)['.canvas-build.json']!);
    writeFileSync(join(dir, '.canvas-build.json'), `${JSON.stringify({ ...manifest, renderer: 'older' })}\n`);
    const one = JSON.parse((await runMain(ws, ['build', '--out', dir, '--ledger', 'projections', '--json'])).stdout);
    expect(one).toMatchObject({ built: ['projections'], unchanged: [], failed: [] });
    const listed = (html: string) => [...html.matchAll(/<tr id="canvas-([^"]+)"/g)].map((m) => m[1]);
    expect(listed(tree(dir)['index.html']!)).toEqual(['concurrency', 'node-identity', 'projections', 'store-substrate']);
    // The others were built by the older renderers: the next build rebuilds them, and the site is
    // then the one a build from nothing writes.
    const all = JSON.parse((await runMain(ws, ['build', '--out', dir, '--json'])).stdout);
    expect(all).toMatchObject({ built: ['concurrency', 'node-identity', 'store-substrate'], unchanged: ['projections'], failed: [] });
    const fresh = out();
    expect((await runMain(ws, ['build', '--out', fresh])).code).toBe(0);
    expect(tree(dir)).toEqual(tree(fresh));
  });

  it('takes renderers without renderIndexRow (written before it existed): no row is kept, the index is the same', async () => {
    const ws = await exampleWorkspace();
    const { renderIndexRow: _row, ...older } = await loadRenderers();
    const [a, b] = [out(), out()];
    expect((await buildSite(ws, { out: a }, await loadRenderers())).failed).toEqual([]);
    const r = await buildSite(ws, { out: b }, older);
    expect(r.failed).toEqual([]);
    expect(r.built).toHaveLength(4);
    expect(tree(b)['index.html']).toBe(tree(a)['index.html']);
    expect(Object.values(manifestParts(tree(b)['.canvas-build.json']!).manifest.entries).map((e) => Object.keys(e).includes('row'))).toEqual([false, false, false, false]);
    // An edit after: the index is still rendered whole, and the same as the package's renderers give.
    const c = await readCanvas(ws, { ledger: 'projections' });
    const node = [...c.xml.matchAll(/<text id="([a-z0-9]+)"/g)][0]![1]!;
    expect((await replaceNode(ws, { ledger: 'projections', node, payload: { text: 'Edited for the older renderers.' }, base: c.revision, why: 'an edit', author: AUTHOR })).outcome).toBe('applied');
    expect((await buildSite(ws, { out: b }, older)).built).toEqual(['projections']);
    expect((await buildSite(ws, { out: a }, await loadRenderers())).built).toEqual(['projections']);
    expect(tree(b)['index.html']).toBe(tree(a)['index.html']);
  });

  it('--ledger builds only the canvases named; an unknown one is refused', async () => {
    const ws = await exampleWorkspace();
    const dir = out();
    const r = await runMain(ws, ['build', '--out', dir, '--ledger', 'projections', '--json']);
    expect(JSON.parse(r.stdout).built).toEqual(['projections']);
    expect(Object.keys(tree(dir)).filter((k) => k.endsWith('/index.html'))).toEqual(['projections/index.html']);
    const bad = await runMain(ws, ['build', '--out', dir, '--ledger', 'nope', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('CANVAS_NOT_FOUND');
  });
});
