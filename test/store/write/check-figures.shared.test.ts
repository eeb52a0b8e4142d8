import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { parsePayload } from '../../../src/model/parse-payload.js';
import type { NodePayload } from '../../../src/model/types.js';
import { createCanvas, insertNode, readCanvas, replaceNode } from '../../../src/index.js';
import { checkFigures } from '../../../src/store/write/check-figures.js';
import { AUTHOR, repoState, tempWorkspace } from '../../helpers/workspace.js';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const svgFigure = (inner: string, attrs = ''): string => `<figure kind="svg"><svg ${NS}${attrs}>${inner}</svg></figure>`;

async function refusal(payload: NodePayload): Promise<CanvasError> {
  try {
    await checkFigures(payload);
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('checkFigures: hostile SVGs are refused at write time, naming the culprit and its path', () => {
  const cases: [string, string, RegExp][] = [
    ['<script>', svgFigure('<script>alert(1)</script>'), /<script> at \/figure\/svg\/script\[1\]/],
    ['onload=', svgFigure('<rect width="1" height="1"/>', ' onload="alert(1)"'), /onload="alert\(1\)" on <svg> at \/figure\/svg/],
    ['onclick deep inside', svgFigure('<g><rect/><rect onclick="x()"/></g>'), /onclick="x\(\)" on <rect> at \/figure\/svg\/g\[1\]\/rect\[2\]/],
    ['<foreignObject>', svgFigure('<foreignObject width="9" height="9"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'), /<foreignObject> at \/figure\/svg\/foreignObject\[1\]/],
    ['<use> of an external file', svgFigure('<use href="https://evil/x.svg#a"/>'), /href="https:\/\/evil\/x.svg#a" on <use> at \/figure\/svg\/use\[1\]/],
    ['<use xlink:href> of an external file', svgFigure('<use xlink:href="https://evil/x.svg#a"/>', ' xmlns:xlink="http://www.w3.org/1999/xlink"'), /xlink:href="https:\/\/evil\/x.svg#a" on <use>/],
    ['<a href="javascript:">', svgFigure('<a href="javascript:alert(1)"><text>x</text></a>'), /href="javascript:alert\(1\)" on <a> at \/figure\/svg\/a\[1\]/],
    ['<a href=" JavaScript:"> with spaces and case', svgFigure('<a href="  Java&#x09;Script:alert(1)"><text>x</text></a>'), /on <a> at \/figure\/svg\/a\[1\]/],
    ['<a href> relative', svgFigure('<a href="other.html"><text>x</text></a>'), /href="other.html" on <a>/],
    ['<image href> external', svgFigure('<image href="https://evil/x.png" width="1" height="1"/>'), /href="https:\/\/evil\/x.png" on <image> at \/figure\/svg\/image\[1\]/],
    ['<image href> data URL', svgFigure('<image href="data:image/png;base64,AAAA"/>'), /href="data:image\/png;base64,AAAA" on <image>/],
    ['<style>', svgFigure('<style>@import url(https://e/x.css);</style><rect/>'), /<style> at \/figure\/svg\/style\[1\]/],
    ['style=', svgFigure('<rect style="background:url(https://e)"/>'), /style="background:url\(https:\/\/e\)" on <rect> at \/figure\/svg\/rect\[1\]/],
    ['harmless style= too', svgFigure('<rect style="fill:red"/>'), /style="fill:red" on <rect>/],
    ['fill=url(external)', svgFigure('<rect fill="url(https://e#x)"/>'), /fill="url\(https:\/\/e#x\)" on <rect> at \/figure\/svg\/rect\[1\]/],
    ['filter=url(quoted external)', svgFigure(`<rect filter="url( 'https://e#x' )"/>`), /filter=.* on <rect>/],
    ['url() hidden by a CSS escape', svgFigure('<rect fill="u\\72l(https://e)"/>'), /fill=.* on <rect>/],
    ['<animate> aimed at href', svgFigure('<a href="#x"><animate attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'), /<animate> at \/figure\/svg\/a\[1\]\/animate\[1\]/],
    ['<set> aimed at href', svgFigure('<a href="#x"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'), /<set> at \/figure\/svg\/a\[1\]\/set\[1\]/],
    ['<iframe>', svgFigure('<iframe src="https://e"/>'), /iframe/],
    ['an HTML element that breaks out of SVG when parsed', svgFigure('<p>x</p><rect/>'), /<p> at \/figure\/svg\/p\[1\]/],
    ['<body> that merges into the page body', svgFigure('<body onload="alert(1)"/>'), /<body> at \/figure\/svg\/body\[1\]/],
    ['an id that clobbers the document', svgFigure('<g id="cookie"/>'), /id="cookie" on <g>/],
  ];

  it.each(cases)('%s', async (_name, xml, culprit) => {
    const e = await refusal(parsePayload(xml));
    expect(e.code).toBe('UNSAFE_SVG');
    expect(e.message).toMatch(culprit);
    expect(e.hint).toMatch(/local #id/);
  });

  it('names every culprit, with structured data', async () => {
    const e = await refusal(parsePayload(svgFigure('<script>1</script><rect onload="x"/><use href="https://e/#a"/>')));
    expect(e.message).toMatch(/<script> at \/figure\/svg\/script\[1\]; onload="x" on <rect> at \/figure\/svg\/rect\[1\]; href="https:\/\/e\/#a" on <use>/);
    expect(e.data.removed).toEqual([
      { path: '/figure/svg/script[1]', element: 'script' },
      { path: '/figure/svg/rect[1]', element: 'rect', attribute: 'onload', value: 'x' },
      { path: '/figure/svg/use[1]', element: 'use', attribute: 'href', value: 'https://e/#a' },
    ]);
  });
});

describe('checkFigures: benign figures pass', () => {
  const benign: [string, string][] = [
    ['shapes', svgFigure('<rect x="1" y="2" width="3" height="4" fill="#f00" stroke="blue"/><circle cx="5" cy="5" r="2"/><path d="M0,0L10,10z"/>', ' viewBox="0 0 10 10" width="10" height="10"')],
    [
      'a gradient used through url(#g)',
      svgFigure('<defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs><rect fill="url(#g)" width="5" height="5"/>'),
    ],
    ['a filter and a clip path', svgFigure(`<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter><clipPath id="c"><circle r="3"/></clipPath></defs><rect filter="url(#f)" clip-path="url('#c')"/>`)],
    ['<use href="#r">', svgFigure('<defs><rect id="r" width="1" height="1"/></defs><use href="#r" x="2"/>')],
    ['<use xlink:href="#r">', svgFigure('<defs><rect id="r" width="1" height="1"/></defs><use xlink:href="#r"/>', ' xmlns:xlink="http://www.w3.org/1999/xlink"')],
    ['<text> with markup-like text', svgFigure('<text x="1" y="2">a &amp; b &gt; c "quoted"</text>')],
    ['<a> to https and mailto', svgFigure('<a href="https://example.org/x"><text>web</text></a><a href="mailto:x@example.org"><text>mail</text></a>')],
    ['title, desc, role and aria', svgFigure('<title>T</title><desc>D</desc><rect/>', ' role="img" aria-label="A chart"')],
  ];
  it.each(benign)('%s', async (_name, xml) => {
    await expect(checkFigures(parsePayload(xml))).resolves.toBeUndefined();
  });

  it('checks a diagram source and leaves mermaid and other nodes alone', async () => {
    await expect(checkFigures(parsePayload('<figure kind="diagram">diagram 1\nA -&gt; B</figure>'))).resolves.toBeUndefined();
    const e = await refusal(parsePayload('<figure kind="diagram">diagram 1\nA =&gt; B</figure>'));
    expect(e.code).toBe('DIAGRAM_SYNTAX');
    expect(e.data).toEqual({ line: 2, column: 3 });
    await expect(checkFigures(parsePayload('<figure kind="mermaid">graph TD; A--&gt;B; click A "javascript:alert(1)"</figure>'))).resolves.toBeUndefined();
    await expect(checkFigures({ type: 'text', text: '<script>' })).resolves.toBeUndefined();
  });
});

describe('the store refuses an unsafe SVG and writes nothing', () => {
  it('insertNode with <script> in an svg figure is rejected with UNSAFE_SVG; the repository is unchanged', async () => {
    const ws = tempWorkspace();
    const created = await createCanvas(ws, { ledger: 'fig-1', why: 'start the figures canvas', author: AUTHOR });
    expect(created.outcome).toBe('applied');
    const { revision } = await readCanvas(ws, { ledger: 'fig-1' });
    const before = repoState(ws);
    const outcome = await insertNode(ws, {
      ledger: 'fig-1',
      why: 'add the architecture picture',
      author: AUTHOR,
      base: revision,
      into: 'root',
      payload: { xml: svgFigure('<rect width="1" height="1"/><script>alert(1)</script>') },
    });
    expect(outcome).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_SVG' });
    expect(outcome.outcome === 'rejected' && outcome.reason).toMatch(/<script> at \/figure\/svg\/script\[1\]/);
    expect(repoState(ws)).toEqual(before);

    // The same figure without the script goes in, and a replace that adds one is refused too.
    const ok = await insertNode(ws, {
      ledger: 'fig-1',
      why: 'add the architecture picture',
      author: AUTHOR,
      base: revision,
      into: 'root',
      payload: { xml: svgFigure('<rect width="1" height="1"/>') },
    });
    expect(ok.outcome).toBe('applied');
    const after = await readCanvas(ws, { ledger: 'fig-1' });
    const node = ok.outcome === 'applied' ? ok.node! : '';
    const stateBefore = repoState(ws);
    const replaced = await replaceNode(ws, {
      ledger: 'fig-1',
      why: 'make the picture clickable',
      author: AUTHOR,
      base: after.revision,
      node,
      payload: { xml: svgFigure('<rect width="1" height="1" onclick="alert(1)"/>') },
    });
    expect(replaced).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_SVG' });
    expect(repoState(ws)).toEqual(stateBefore);
  });

  it('insertNode with a diagram that does not parse is rejected with DIAGRAM_SYNTAX and its line and column', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'fig-2', why: 'start the figures canvas', author: AUTHOR });
    const { revision } = await readCanvas(ws, { ledger: 'fig-2' });
    const before = repoState(ws);
    const outcome = await insertNode(ws, {
      ledger: 'fig-2',
      why: 'sketch the flow',
      author: AUTHOR,
      base: revision,
      into: 'root',
      payload: { xml: '<figure kind="diagram">diagram 1\nA -&gt; B\nB C</figure>' },
    });
    expect(outcome).toMatchObject({ outcome: 'rejected', code: 'DIAGRAM_SYNTAX', data: { line: 3, column: 3 } });
    expect(repoState(ws)).toEqual(before);
  });
});
