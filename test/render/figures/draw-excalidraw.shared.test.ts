// The drawing of an Excalidraw scene (docs/excalidraw.md, "What is drawn"): a golden SVG per
// scene of the corpus in snapshots/excalidraw/scenes/ (missing ones are written, UPDATE=1
// rewrites them), the same bytes every time, every element drawn or named, links only when safe,
// and the SVG figure's own check passed by every drawing.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { readScene } from '../../../src/model/excalidraw/read-scene.js';
import { parsePayload } from '../../../src/model/parse-payload.js';
import { checkSvg } from '../../../src/model/svg/check-svg.js';
import { drawExcalidraw } from '../../../src/render/figures/draw-excalidraw.js';
import { elementsWhere } from '../../helpers/hast-elements.js';
import { ROOT } from '../../helpers/workspace.js';

const SCENES = join(ROOT, 'snapshots', 'excalidraw', 'scenes');
const UPDATE = process.env.UPDATE === '1';
const names = readdirSync(SCENES)
  .filter((f) => f.endsWith('.excalidraw'))
  .map((f) => f.slice(0, -'.excalidraw'.length))
  .sort();

const stored = (name: string): string => readScene(readFileSync(join(SCENES, `${name}.excalidraw`), 'utf8')).text;
const draw = (source: string): string => toHtml(drawExcalidraw(source));

function scene(elements: unknown[], appState: Record<string, unknown> = {}): string {
  return readScene(JSON.stringify({ type: 'excalidraw', version: 2, elements, appState, files: {} })).text;
}

describe('drawExcalidraw: the corpus against its golden SVGs', () => {
  it('has a scene of every kind the drawer knows', () => {
    expect(names).toEqual(['architecture', 'arrows', 'freedraw', 'image', 'shapes', 'text', 'unknown']);
  });

  it.each(names)('%s is drawn as its golden SVG, byte for byte', (name) => {
    const svg = draw(stored(name));
    const file = join(SCENES, `${name}.svg`);
    if (UPDATE || !existsSync(file)) writeFileSync(file, `${svg}\n`);
    expect(`${svg}\n`).toBe(readFileSync(file, 'utf8'));
  });

  it.each(names)('%s: every element shown is one <g data-element>, a deleted one is not drawn', (name) => {
    const source = stored(name);
    const tree = drawExcalidraw(source);
    const drawn = elementsWhere(tree, (e) => e.tagName === 'g').map((g) => [g.properties.dataElement, g.properties.dataElementType]);
    const expected = readScene(source)
      .elements.filter((e) => !e.isDeleted)
      .map((e) => [e.id, e.type]);
    expect(drawn).toEqual(expected);
  });

  it.each(names)('%s passes the SVG figure check (its checked pictures aside)', async (name) => {
    // The one thing a drawing holds that an SVG figure may not: a data URL picture, checked at
    // write time to be a PNG, JPEG, GIF or WebP (docs/excalidraw.md, "What is drawn").
    const svg = draw(stored(name)).replace(/href="data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*"/g, 'href="#picture"');
    const figure = parsePayload(`<figure kind="svg">${svg}</figure>`);
    if (figure.type !== 'figure' || !figure.svg) throw new Error('not an svg figure');
    await checkSvg(figure.svg);
  });
});

describe('drawExcalidraw: what it draws', () => {
  it('gives the same bytes for the same scene, a seed of 0 included (roughjs would draw at random)', () => {
    const s = scene([{ id: 'r', type: 'rectangle', width: 100, height: 60, seed: 0, backgroundColor: '#ffc9c9', fillStyle: 'hachure' }]);
    expect(draw(s)).toBe(draw(s));
    expect(draw(s)).toBe(draw(scene([{ id: 'r', type: 'rectangle', width: 100, height: 60, seed: 0, backgroundColor: '#ffc9c9', fillStyle: 'hachure' }])));
  });

  it('draws a dots fill the same twice: roughjs jitters its dots with Math.random, the drawer seeds it', () => {
    const s = scene([{ id: 'r', type: 'rectangle', width: 200, height: 120, seed: 5, backgroundColor: '#d0bfff', fillStyle: 'dots' }]);
    const original = Math.random;
    const first = draw(s);
    expect(draw(s)).toBe(first);
    expect(Math.random).toBe(original);
  });

  it("draws a different seed differently: the seed is the element's own", () => {
    const a = draw(scene([{ id: 'r', type: 'rectangle', width: 100, height: 60, seed: 1 }]));
    const b = draw(scene([{ id: 'r', type: 'rectangle', width: 100, height: 60, seed: 2 }]));
    expect(a).not.toBe(b);
  });

  it('wraps an element in a link only for http, https and mailto', () => {
    const svg = draw(
      scene([
        { id: 'a', type: 'rectangle', width: 10, height: 10, link: 'https://example.com/a' },
        { id: 'b', type: 'rectangle', width: 10, height: 10, link: 'mailto:x@example.com' },
        { id: 'c', type: 'rectangle', width: 10, height: 10, link: 'example.com/relative' },
      ]),
    );
    expect([...svg.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://example.com/a', 'mailto:x@example.com']);
  });

  it('names a type it does not draw, and draws colours that are not plain colours inert', () => {
    const svg = draw(
      scene([
        { id: 'a', type: 'hologram', width: 50, height: 40 },
        { id: 'b', type: 'rectangle', width: 50, height: 40, strokeColor: 'url(https://evil.example/x.svg#a)', backgroundColor: 'red;fill:url(#y)' },
      ]),
    );
    expect(svg).toContain('>hologram</text>');
    expect(svg).not.toContain('url(');
    expect(svg).not.toContain('evil');
  });

  it('escapes text: a label is never markup', () => {
    const svg = draw(scene([{ id: 't', type: 'text', text: '<script>alert(1)</script> & \u0007', width: 100, height: 25 }]));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#x3C;script>');
    expect(svg).toContain('\uFFFD');
  });

  it('keeps the fills of huge shapes to a bounded number of strokes', () => {
    const shapes = Array.from({ length: 200 }, (_, i) => ({
      id: `r${i}`,
      type: 'rectangle',
      x: i,
      y: i,
      width: 1_000_000,
      height: 1_000_000,
      strokeWidth: 0.1,
      backgroundColor: '#000',
      fillStyle: i % 2 ? 'dots' : 'cross-hatch',
      seed: i + 1,
    }));
    const svg = draw(scene(shapes));
    const strokes = (svg.match(/M/g) ?? []).length;
    expect(strokes).toBeLessThan(200_000);
  });

  it('draws the background of the scene, else white', () => {
    expect(draw(scene([{ id: 'a', type: 'ellipse', width: 10, height: 10 }], { viewBackgroundColor: '#fff9db' }))).toContain('fill="#fff9db"');
    expect(draw(scene([{ id: 'a', type: 'ellipse', width: 10, height: 10 }]))).toContain('fill="#ffffff"');
  });
});
