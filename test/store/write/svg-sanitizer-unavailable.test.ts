import { describe, expect, it, vi } from 'vitest';

// jsdom as it is when it cannot give DOMPurify a usable window: a window with no document.
vi.mock('jsdom', () => ({
  JSDOM: class {
    readonly window = {};
  },
}));

const { CanvasError } = await import('../../../src/model/canvas-error.js');
const { createCanvas, insertNode, readCanvas } = await import('../../../src/index.js');
const { AUTHOR, repoState, tempWorkspace } = await import('../../helpers/workspace.js');
const { pageOf } = await import('../../render/page-of.js');
const { snapshotOf } = await import('../../render/snapshot-of.js');

const FIGURE = '<figure kind="svg"><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg></figure>';

describe('an SVG check where DOMPurify cannot run', () => {
  it('refuses the write with SVG_SANITIZER_UNAVAILABLE (checking isSupported), nothing written', async () => {
    const ws = tempWorkspace('canvas-no-dom-');
    const created = await createCanvas(ws, { ledger: 'nodom', why: 'a canvas for a figure', author: AUTHOR });
    expect(created.outcome).toBe('applied');
    const base = (await readCanvas(ws, { ledger: 'nodom' })).revision;
    const before = repoState(ws);
    let error: unknown = null;
    try {
      const out = await insertNode(ws, { ledger: 'nodom', into: 'root', payload: { xml: FIGURE }, base, why: 'a drawing', author: AUTHOR });
      error = out;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CanvasError);
    expect((error as InstanceType<typeof CanvasError>).code).toBe('SVG_SANITIZER_UNAVAILABLE');
    expect(repoState(ws)).toEqual(before);
  });

  it('a page fails naming the figure (FIGURE_NOT_DRAWN, the cause SVG_SANITIZER_UNAVAILABLE), never written without it nor with the SVG unsanitized', async () => {
    const snapshot = snapshotOf(FIGURE.replace('<figure ', '<figure id="fg" v="1" '));
    await expect(pageOf(snapshot)).rejects.toMatchObject({ code: 'FIGURE_NOT_DRAWN', data: { node: 'fg', cause: 'SVG_SANITIZER_UNAVAILABLE' } });
    // A library caller that draws and renders itself gets the escaped source and the code.
    const { drawFigures, renderPage } = await import('../../../src/render/index.js');
    const page = renderPage(snapshot, { css: '', figures: await drawFigures(snapshot.canvas) });
    expect(page).toContain('SVG_SANITIZER_UNAVAILABLE');
    expect(page).not.toContain('<rect');
  });
});
