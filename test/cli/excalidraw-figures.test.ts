// Excalidraw figures through the command line and the library (docs/excalidraw.md, "Export and
// import"): a scene file stored with --excalidraw-file, exported with render --figure --format
// excalidraw, and given back unchanged (NO_CHANGE, equal bytes); hostile scenes refused with
// their code and nothing written. In process (test/helpers/run-main.ts) but for one real spawn.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertNode, readCanvas, readCanvasText, replaceNode } from '../../src/index.js';
import { readScene } from '../../src/model/excalidraw/read-scene.js';
import type { PayloadInput } from '../../src/model/payload-from-input.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, baseOf, repoState, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

const SCENES = join(ROOT, 'snapshots', 'excalidraw', 'scenes');
const names = readdirSync(SCENES)
  .filter((f) => f.endsWith('.excalidraw'))
  .sort();

let ws: Workspace;
let dir: string;
const figures = new Map<string, string>();

/** The figure's source as stored in the canvas file. */
async function storedSource(id: string): Promise<string> {
  const { canvas } = await readCanvas(ws, { ledger: 'sketches' });
  const node = canvas.children.find((n) => n.id === id);
  if (node?.type !== 'figure') throw new Error(`no figure ${id}`);
  return node.source;
}

async function base(): Promise<string> {
  return (await readCanvas(ws, { ledger: 'sketches' })).revision;
}

beforeAll(async () => {
  ws = tempWorkspace();
  dir = ws.root;
  const opened = await runMain(ws, ['create', 'sketches', '--why', 'the sketches of the task']);
  expect(opened.code).toBe(0);
  for (const name of names) {
    // Written compact, so the store has whitespace to lay out.
    const file = join(dir, name);
    writeFileSync(file, readFileSync(join(SCENES, name), 'utf8'));
    const r = await runMain(ws, ['insert', 'sketches', '--into', 'root', '--excalidraw-file', file, '--base', await base(), '--why', `the ${name} sketch`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    figures.set(name, (JSON.parse(r.stdout) as { node: string }).node);
  }
});

describe('canvas insert --excalidraw-file and render --figure --format excalidraw', () => {
  it.each(names)('%s: stored as the file gave it, in canonical whitespace', async (name) => {
    const text = readFileSync(join(SCENES, name), 'utf8');
    expect(await storedSource(figures.get(name)!)).toBe(readScene(text).text);
  });

  it.each(names)('%s: export, then replace with the exported file: NO_CHANGE and the same stored bytes', async (name) => {
    const id = figures.get(name)!;
    const before = await readCanvasText(ws, { ledger: 'sketches' });
    const out = join(dir, `exported-${name}`);
    const exported = await runMain(ws, ['render', 'sketches', '--figure', id, '--format', 'excalidraw', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const file = readFileSync(out, 'utf8');
    expect(file).toBe(`${await storedSource(id)}\n`);
    const back = await runMain(ws, ['replace', 'sketches', id, '--excalidraw-file', out, '--base', await base(), '--why', 'brought back from Excalidraw', '--json']);
    expect(back.code).toBe(2);
    expect(JSON.parse(back.stdout)).toMatchObject({ outcome: 'rejected', code: 'NO_CHANGE' });
    expect((await readCanvasText(ws, { ledger: 'sketches' })).xml).toBe(before.xml);
    expect(before.xml).toContain(`<figure id="${id}" v="1" kind="excalidraw">{`);
  });

  it('a compact copy of a stored scene changes nothing either: only whitespace differs', async () => {
    const id = figures.get('architecture.excalidraw')!;
    const compact = JSON.stringify(JSON.parse(await storedSource(id)));
    const o = await replaceNode(ws, { ledger: 'sketches', node: id, base: await base(), why: 'the same scene, compact', author: AUTHOR, payload: { excalidraw: compact } });
    expect(o).toMatchObject({ outcome: 'rejected', code: 'NO_CHANGE' });
  });

  it('the XML payload of the MCP tools and --xml takes the kind too, laid out the same way', async () => {
    const text = readFileSync(join(SCENES, 'shapes.excalidraw'), 'utf8');
    const compact = JSON.stringify(JSON.parse(text));
    const xml = `<figure kind="excalidraw" caption="Shapes">${compact.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</figure>`;
    const o = await insertNode(ws, { ledger: 'sketches', into: 'root', base: await base(), why: 'the shapes again, as XML', author: AUTHOR, payload: { xml } });
    expect(o.outcome).toBe('applied');
    expect(await storedSource((o as { node: string }).node)).toBe(readScene(text).text);
  });

  it('--caption sets the caption, and the same scene with the same caption changes nothing', async () => {
    const file = join(SCENES, 'text.excalidraw');
    const r = await runMain(ws, ['insert', 'sketches', '--into', 'root', '--excalidraw-file', file, '--caption', 'The fonts', '--base', await base(), '--why', 'the fonts', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { node: string }).node;
    expect((await readCanvasText(ws, { ledger: 'sketches' })).xml).toContain(`<figure id="${id}" v="1" kind="excalidraw" caption="The fonts">{`);
    const same = await runMain(ws, ['replace', 'sketches', id, '--excalidraw-file', file, '--caption', 'The fonts', '--base', await base(), '--why', 'again', '--json']);
    expect(JSON.parse(same.stdout)).toMatchObject({ code: 'NO_CHANGE' });
  });

  it('refuses --format excalidraw without --figure, --figure of another node, and an unknown figure', async () => {
    const textNode = (await runMain(ws, ['insert', 'sketches', '--into', 'root', '--text', 'Not a sketch.', '--base', await base(), '--why', 'a text', '--json'])).stdout;
    const textId = (JSON.parse(textNode) as { node: string }).node;
    const cases: [string[], string][] = [
      [['render', 'sketches', '--format', 'excalidraw'], 'USAGE'],
      [['render', 'sketches', '--figure', textId, '--format', 'excalidraw'], 'USAGE'],
      [['render', 'sketches', '--figure', figures.get('text.excalidraw')!], 'USAGE'],
      [['render', 'sketches', '--figure', 'zz99', '--format', 'excalidraw'], 'NODE_NOT_FOUND'],
      [['insert', 'sketches', '--into', 'root', '--text', 'x', '--caption', 'c', '--base', await base(), '--why', 'w'], 'USAGE'],
    ];
    for (const [args, code] of cases) {
      const r = await runMain(ws, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toContain(`"code":"${code}"`);
    }
  });

  it('a real process prints the scene on stdout for a file a person saves', async () => {
    const id = figures.get('image.excalidraw')!;
    const r = await runCli(ws, ['render', 'sketches', '--figure', id, '--format', 'excalidraw']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${await storedSource(id)}\n`);
    expect(baseOf(`Canvas-Base: ${await base()}`)).toBe(await base());
  });
});

describe('hostile scenes are refused or inert, and nothing is written', () => {
  const scene = (elements: unknown[], extra: Record<string, unknown> = {}): string => JSON.stringify({ type: 'excalidraw', version: 2, elements, appState: {}, files: {}, ...extra });
  const svgPicture = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>').toString('base64')}`;
  let deep = '1';
  for (let i = 0; i < 500; i += 1) deep = `[${deep}]`;
  const cases: [string, string, () => string][] = (
    [
      ['a javascript: link', () => scene([{ id: 'a', type: 'rectangle', link: 'javascript:alert(document.cookie)' }]), 'UNSAFE_SCENE'],
      ['an embeddable of javascript:', () => scene([{ id: 'a', type: 'embeddable', link: ' JAVASCRIPT:alert(1)' }]), 'UNSAFE_SCENE'],
      ['an SVG in an image data URL', () => scene([{ id: 'a', type: 'image', fileId: 'f' }], { files: { f: { mimeType: 'image/svg+xml', id: 'f', dataURL: svgPicture } } }), 'UNSAFE_SCENE'],
      [
        'an SVG called a PNG',
        () => scene([{ id: 'a', type: 'image', fileId: 'f' }], { files: { f: { mimeType: 'image/png', id: 'f', dataURL: svgPicture.replace('image/svg+xml', 'image/png') } } }),
        'UNSAFE_SCENE',
      ],
      ['huge coordinates', () => scene([{ id: 'a', type: 'ellipse', x: 1e300, y: -1e300, width: 1e300, height: 1e300 }]), 'SCENE_LIMIT'],
      ['deep nesting', () => scene([{ id: 'a', type: 'rectangle', customData: JSON.parse(deep) }]), 'SCENE_LIMIT'],
      ['not JSON', () => '{"type":"excalidraw","elements":[', 'SCENE_JSON'],
      ['not a scene', () => JSON.stringify({ type: 'excalidrawlib', libraryItems: [] }), 'SCENE_INVALID'],
      ['an element without an id', () => scene([{ type: 'rectangle' }]), 'SCENE_INVALID'],
      [
        'a picture past the node limit',
        () => scene([{ id: 'a', type: 'image', fileId: 'f' }], { files: { f: { mimeType: 'image/png', id: 'f', dataURL: `data:image/png;base64,iVBORw0KGgo${'A'.repeat(200_000)}` } } }),
        'TOO_LARGE',
      ],
    ] as [string, () => string, string][]
  ).map(([name, make, code]) => [name, code, make]);
  it.each(cases)('%s: %s', async (_name, code, make) => {
    const file = join(dir, 'hostile.excalidraw');
    writeFileSync(file, make());
    const before = repoState(ws);
    const r = await runMain(ws, ['insert', 'sketches', '--into', 'root', '--excalidraw-file', file, '--base', await base(), '--why', 'a hostile scene', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'rejected', code });
    expect(repoState(ws)).toEqual(before);
  });

  it('a 50 MB file is refused before it is read', async () => {
    const file = join(dir, 'huge.excalidraw');
    writeFileSync(file, Buffer.alloc(50 * 1024 * 1024, 0x20));
    const before = repoState(ws);
    const r = await runMain(ws, ['insert', 'sketches', '--into', 'root', '--excalidraw-file', file, '--base', await base(), '--why', 'a huge file', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('"code":"TOO_LARGE"');
    expect(repoState(ws)).toEqual(before);
  });

  it('a tree handed to the library must already be laid out (layout), and is refused otherwise', async () => {
    const before = repoState(ws);
    const o = await insertNode(ws, {
      ledger: 'sketches',
      into: 'root',
      base: await base(),
      why: 'a tree',
      author: AUTHOR,
      payload: { type: 'figure', kind: 'excalidraw', source: scene([{ id: 'a', type: 'rectangle' }]) } as unknown as PayloadInput,
    });
    expect(o).toMatchObject({ outcome: 'rejected', code: 'SCENE_INVALID' });
    expect(repoState(ws)).toEqual(before);
  });
});
