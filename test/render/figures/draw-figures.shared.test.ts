// The figure pre-pass: every diagram and svg figure drawn once, by id, before the page renders;
// a figure's refusal is kept for the page to show, never thrown.
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { drawFigures } from '../../../src/render/figures/draw-figures.js';
import { snapshotOf } from '../snapshot-of.js';

describe('drawFigures', () => {
  it('draws the diagram and svg figures, inside sections too, and leaves mermaid figures to the browser', async () => {
    const s = snapshotOf(
      '<figure id="d1" v="1" kind="diagram">diagram 1\nnode a "A"</figure>' +
        '<section id="s1" v="1" title="S"><figure id="v1" v="1" kind="svg"><svg xmlns="http://www.w3.org/2000/svg"><rect id="r" width="1" height="1"/></svg></figure></section>' +
        '<figure id="m1" v="1" kind="mermaid">graph TD; A--&gt;B</figure><text id="t1" v="1">x</text>',
    );
    const figures = await drawFigures(s.canvas);
    expect([...figures.keys()]).toEqual(['d1', 'v1']);
    const d1 = figures.get('d1');
    const v1 = figures.get('v1');
    expect(d1 instanceof CanvasError ? d1.code : d1?.tagName).toBe('svg');
    expect(v1 instanceof CanvasError ? v1.code : v1?.tagName).toBe('svg');
    // The ids inside each drawing carry the figure's id, so two drawings never collide.
    expect(JSON.stringify(v1)).toContain('"id":"v1-r"');
  });

  it('records a figure that cannot be drawn with its refusal, and still draws the others', async () => {
    const s = snapshotOf('<figure id="d1" v="1" kind="diagram">not a diagram</figure><figure id="d2" v="1" kind="diagram">diagram 1\nnode a "A"</figure>');
    const figures = await drawFigures(s.canvas);
    const d1 = figures.get('d1');
    expect(d1).toBeInstanceOf(CanvasError);
    expect((d1 as CanvasError).code).toBe('DIAGRAM_SYNTAX');
    expect(figures.get('d2')).not.toBeInstanceOf(CanvasError);
  });

  it('draws nothing for a canvas without figures', async () => {
    expect((await drawFigures(snapshotOf('<text id="t1" v="1">x</text>').canvas)).size).toBe(0);
  });
});
