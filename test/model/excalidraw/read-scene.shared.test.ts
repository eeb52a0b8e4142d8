// Scenes at write time (docs/excalidraw.md, "The stored form", "What is refused", "Limits"): every
// token kept as written, only whitespace laid out; each refusal a code with the JSON Pointer.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { checkScene } from '../../../src/model/excalidraw/check-scene.js';
import { readScene } from '../../../src/model/excalidraw/read-scene.js';
import { ROOT } from '../../helpers/workspace.js';

const SCENES = join(ROOT, 'snapshots', 'excalidraw', 'scenes');
const corpus = readdirSync(SCENES)
  .filter((f) => f.endsWith('.excalidraw'))
  .sort()
  .map((f) => [f, readFileSync(join(SCENES, f), 'utf8')] as const);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

/** A minimal scene around some elements, with extra top-level keys. */
function scene(elements: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'excalidraw', version: 2, source: 'test', elements, appState: {}, files: {}, ...extra });
}

const box = (extra: Record<string, unknown> = {}) => ({ id: 'b1', type: 'rectangle', x: 0, y: 0, width: 10, height: 10, seed: 7, ...extra });

function refusal(text: string): CanvasError {
  try {
    readScene(text);
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  throw new Error('accepted');
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i += 1) v = [v];
  return v;
}

describe('readScene: what is refused, with its code and JSON Pointer', () => {
  const cases: [string, string, string, string][] = (
    [
      ['not JSON', '{"type": "excalidraw", "elements": [}', 'SCENE_JSON', '/elements/0'],
      ['trailing text', `${scene([box()])} x`, 'SCENE_JSON', '/'],
      ['a key twice', '{"type":"excalidraw","elements":[{"id":"a","type":"text","id":"b"}]}', 'SCENE_JSON', '/elements/0'],
      ['a control character in a string', '{"type":"excalidraw\u0001","elements":[]}', 'SCENE_JSON', '/type'],
      ['an array', '[]', 'SCENE_INVALID', '/'],
      ['a library file', JSON.stringify({ type: 'excalidrawlib', libraryItems: [] }), 'SCENE_INVALID', '/type'],
      ['no type', JSON.stringify({ elements: [box()] }), 'SCENE_INVALID', '/type'],
      ['no elements', JSON.stringify({ type: 'excalidraw' }), 'SCENE_INVALID', '/elements'],
      ['elements an object', JSON.stringify({ type: 'excalidraw', elements: {} }), 'SCENE_INVALID', '/elements'],
      ['appState an array', scene([box()], { appState: [] }), 'SCENE_INVALID', '/appState'],
      ['files a string', scene([box()], { files: 'x' }), 'SCENE_INVALID', '/files'],
      ['an element that is a number', scene([box(), 3]), 'SCENE_INVALID', '/elements/1'],
      ['an element without id', scene([{ type: 'rectangle' }]), 'SCENE_INVALID', '/elements/0'],
      ['an element with an empty type', scene([{ id: 'a', type: '' }]), 'SCENE_INVALID', '/elements/0'],
      ['two elements with one id', scene([box(), box()]), 'SCENE_INVALID', '/elements/1/id'],
      ['x a string', scene([box({ x: '0' })]), 'SCENE_INVALID', '/elements/0/x'],
      ['points not pairs', scene([{ id: 'l', type: 'line', points: [[0, 0], [1]] }]), 'SCENE_INVALID', '/elements/0/points/1'],
      ['isDeleted a string', scene([box({ isDeleted: 'no' })]), 'SCENE_INVALID', '/elements/0/isDeleted'],
      ['only deleted elements', scene([box({ isDeleted: true })]), 'SCENE_INVALID', '/elements'],
      ['a javascript: link', scene([box({ link: 'javascript:alert(1)' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['a JaVaScRiPt: link with spaces', scene([box({ link: '  JaVaScRiPt:alert(1)' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['a link hiding its scheme with an escape', scene([box({ link: 'java%0ascript:alert(1)' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['a link hiding its scheme with a reference', scene([box({ link: 'javascript&#58;alert(1)' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['a data: link', scene([box({ link: 'data:text/html,<script>alert(1)</script>' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['an about:blank link', scene([box({ link: 'about:blank' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      ['a vbscript: embeddable', scene([box({ type: 'embeddable', link: 'vbscript:x' })]), 'UNSAFE_SCENE', '/elements/0/link'],
      [
        'an SVG picture',
        scene([box()], { files: { f: { mimeType: 'image/svg+xml', dataURL: `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}` } } }),
        'UNSAFE_SCENE',
        '/files/f/dataURL',
      ],
      [
        'an HTML page called a PNG',
        scene([box()], { files: { f: { mimeType: 'image/png', dataURL: `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script>').toString('base64')}` } } }),
        'UNSAFE_SCENE',
        '/files/f/dataURL',
      ],
      ["a mimeType that is not the data URL's", scene([box()], { files: { f: { mimeType: 'image/gif', dataURL: `data:image/png;base64,${PNG}` } } }), 'UNSAFE_SCENE', '/files/f/mimeType'],
      ['a file that is not a data URL', scene([box()], { files: { f: { mimeType: 'image/png', dataURL: 'https://example.com/a.png' } } }), 'UNSAFE_SCENE', '/files/f/dataURL'],
      ['nesting 33 deep', scene([box({ customData: nested(30) })]), 'SCENE_LIMIT', '/elements/0/customData/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0'],
      ['2,001 elements', scene(Array.from({ length: 2001 }, (_, i) => ({ id: `e${i}`, type: 'rectangle' }))), 'SCENE_LIMIT', '/elements'],
      ['10,001 points', scene([{ id: 'l', type: 'line', points: Array.from({ length: 10_001 }, (_, i) => [i, 0]) }]), 'SCENE_LIMIT', '/elements/0/points'],
      ['a huge x', scene([box({ x: 1e7 })]), 'SCENE_LIMIT', '/elements/0/x'],
      ['a width that reads as Infinity', scene([box()]).replace('"width":10', '"width":1e400'), 'SCENE_LIMIT', '/elements/0/width'],
      [
        'a huge point',
        scene([
          {
            id: 'l',
            type: 'line',
            points: [
              [0, 0],
              [0, -2e6],
            ],
          },
        ]),
        'SCENE_LIMIT',
        '/elements/0/points/1/1',
      ],
      ['a huge stroke width', scene([box({ strokeWidth: 5e6 })]), 'SCENE_LIMIT', '/elements/0/strokeWidth'],
    ] as [string, string, string, string][]
  ).map(([name, text, code, path]) => [name, code, path, text]);
  it.each(cases)('%s: %s at %s', (_name, code, path, text) => {
    const e = refusal(text);
    expect(e.code).toBe(code);
    expect(e.data.path).toBe(path);
    expect(e.hint).not.toBe('');
  });

  it('says where the JSON breaks, by line and column', () => {
    const e = refusal('{\n  "type": "excalidraw",\n  "elements": [1,,]\n}');
    expect(e.code).toBe('SCENE_JSON');
    expect(e.data).toMatchObject({ line: 3, column: 18, path: '/elements/1' });
    expect(e.message).toMatch(/^the scene is not JSON: line 3, column 18/);
  });

  it('keeps a link without a scheme, and http, https and mailto links', () => {
    for (const link of ['example.com/notes', 'https://example.com', 'HTTP://EXAMPLE.COM', 'mailto:a@example.com', '', null]) {
      expect(() => readScene(scene([box({ link })]))).not.toThrow();
    }
  });

  it('takes PNG, JPEG, GIF and WebP pictures', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64');
    const gif = Buffer.from('GIF89a\x01\x00').toString('base64');
    const webp = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ').toString('base64');
    for (const [type, data] of [
      ['image/png', PNG],
      ['image/jpeg', jpeg],
      ['image/gif', gif],
      ['image/webp', webp],
    ] as const) {
      expect(() => readScene(scene([box()], { files: { f: { mimeType: type, dataURL: `data:${type};base64,${data}` } } }))).not.toThrow();
    }
  });
});

describe('readScene: the stored form keeps every token and lays out only the whitespace', () => {
  it('stores a file Excalidraw saved (JSON.stringify with 2 spaces) byte for byte', () => {
    const saved = JSON.stringify(JSON.parse(scene([box({ customData: { a: [1, { b: 'c' }] } })])), null, 2);
    expect(readScene(saved).text).toBe(saved);
  });

  it('keeps keys in their order (integer-like ones too), number spellings, escapes and unknown keys', () => {
    const text =
      '{"type":"excalidraw","x-later":{"z":1,"a":2},"elements":[{"id":"a","type":"text","text":"caf\\u00e9","x":1.50,"y":1E3,"seed":12345678901234567890,"future":[]}],"appState":{"b":1,"10":2},"files":{}}';
    const out = readScene(text).text;
    expect(out).toContain('"text": "caf\\u00e9"');
    expect(out).toContain('"x": 1.50');
    expect(out).toContain('"y": 1E3');
    expect(out).toContain('"seed": 12345678901234567890');
    expect(out).toContain('"future": []');
    expect(out.indexOf('"b": 1')).toBeLessThan(out.indexOf('"10": 2'));
    expect(out.indexOf('"z": 1')).toBeLessThan(out.indexOf('"a": 2'));
    expect(out.replace(/\s+/g, '')).toBe(text);
  });

  it('lays out a compact or a ragged file the same way, and a second time changes nothing', () => {
    for (const [name, text] of corpus) {
      const canonical = readScene(text).text;
      const compact = JSON.stringify(JSON.parse(text));
      const ragged = `\ufeff \r\n${text.replace(/\n/g, '\r\n\t')}\n\n`;
      // JSON.parse keeps every token of a scene saved by JSON.stringify (not of one spelling its own way).
      if (JSON.stringify(JSON.parse(text), null, 2) === text) expect(readScene(compact).text, name).toBe(canonical);
      expect(readScene(ragged).text, name).toBe(canonical);
      expect(readScene(canonical).text, name).toBe(canonical);
      expect(() => checkScene(canonical)).not.toThrow();
    }
  });

  it('refuses a stored scene that is not in canonical whitespace (layout)', () => {
    const text = scene([box()]);
    try {
      checkScene(text);
      throw new Error('accepted');
    } catch (e) {
      expect((e as CanvasError).code).toBe('SCENE_INVALID');
      expect((e as CanvasError).data.rule).toBe('layout');
    }
  });

  it('every scene of the corpus is accepted, and what it reads of each element follows the file', () => {
    for (const [name, text] of corpus) {
      const s = readScene(text);
      const parsed = JSON.parse(text) as { elements: { id: string; type: string }[] };
      expect(
        s.elements.map((e) => [e.id, e.type]),
        name,
      ).toEqual(parsed.elements.map((e) => [e.id, e.type]));
    }
  });
});
