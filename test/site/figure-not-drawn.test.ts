import { describe, expect, it, vi } from 'vitest';

// A drawer that fails (a bug, a broken install): the layout library throws on every graph.
vi.mock('@dagrejs/dagre', async (original) => {
  const real = (await original()) as { default: Record<string, unknown> };
  return {
    default: {
      ...real.default,
      layout: () => {
        throw new Error('the layout broke');
      },
    },
  };
});

const { existsSync } = await import('node:fs');
const { join } = await import('node:path');
const { CanvasError } = await import('../../src/model/canvas-error.js');
const { createCanvas, insertNode, readCanvas, readSnapshot } = await import('../../src/index.js');
const { preparePage } = await import('../../src/render/html/prepare-page.js');
const { runMain } = await import('../helpers/run-main.js');
const { tempDir } = await import('../helpers/temp-dir.js');
const { AUTHOR, tempWorkspace } = await import('../helpers/workspace.js');

// A projection never drops content silently (docs/projections.md, "The page"): a figure that
// cannot be drawn makes the page fail, naming the figure, and canvas render and canvas build fail
// for that canvas instead of writing a page without its picture.

describe('a figure that cannot be drawn', () => {
  it('fails the page naming the figure (FIGURE_NOT_DRAWN): render exits 1 and writes nothing, build fails that canvas only', async () => {
    const ws = tempWorkspace('canvas-undrawn-');
    for (const ledger of ['drawn', 'plain']) expect((await createCanvas(ws, { ledger, why: 'a canvas', author: AUTHOR })).outcome).toBe('applied');
    const base = (await readCanvas(ws, { ledger: 'drawn' })).revision;
    const fig = await insertNode(ws, { ledger: 'drawn', into: 'root', payload: { xml: '<figure kind="diagram">diagram 1\nnode a "A"\nnode b "B"\na -> b</figure>' }, base, why: 'a picture', author: AUTHOR });
    expect(fig.outcome).toBe('applied');
    const node = (fig as { node: string }).node;
    const snapshot = await readSnapshot(ws, { ledger: 'drawn' });
    await expect(preparePage(snapshot)).rejects.toMatchObject({ code: 'FIGURE_NOT_DRAWN', data: { node } });
    await expect(preparePage(snapshot)).rejects.toBeInstanceOf(CanvasError);

    const out = join(tempDir('canvas-undrawn-out-'), 'page.html');
    const render = await runMain(ws, ['render', 'drawn', '-o', out, '--json']);
    expect(render.code).toBe(1);
    expect(JSON.parse(render.stdout).error).toMatchObject({ code: 'FIGURE_NOT_DRAWN', data: { node } });
    expect(existsSync(out)).toBe(false);

    const site = join(tempDir('canvas-undrawn-site-'), 'site');
    const build = await runMain(ws, ['build', '--out', site, '--workers', '1', '--json']);
    expect(build.code).toBe(8);
    const report = JSON.parse(build.stdout) as { built: string[]; failed: Array<{ ledger: string; code: string; message: string }> };
    expect(report.built).toEqual(['plain']);
    expect(report.failed).toEqual([expect.objectContaining({ ledger: 'drawn', code: 'FIGURE_NOT_DRAWN', message: expect.stringContaining(`figure ${node}`) })]);
    expect(existsSync(join(site, 'drawn', 'index.html'))).toBe(false);
  });
});
