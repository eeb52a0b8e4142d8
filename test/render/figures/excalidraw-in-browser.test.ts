// Excalidraw's own package in a real browser (docs/excalidraw.md, "Export and import"): its data
// utilities (`loadFromBlob`, `restore`, `serializeAsJSON` from @excalidraw/excalidraw, a dev
// dependency) are bundled with esbuild into a page this test serves on loopback and opened in
// Chromium. Every scene of the corpus, exported by `canvas render --figure --format excalidraw`,
// loads with every element Excalidraw knows, by id; a scene the package saves is stored, exported
// and given back with every field and the same bytes. Skipped without Chromium, except on CI.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertNode, readCanvas, replaceNode } from '../../../src/index.js';
import { readScene } from '../../../src/model/excalidraw/read-scene.js';
import { exportScene } from '../../../src/render/figures/excalidraw-export.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, ROOT, tempWorkspace } from '../../helpers/workspace.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = existsSync(CHROMIUM) || process.env.CI === 'true';
const SCENES = join(ROOT, 'snapshots', 'excalidraw', 'scenes');
const names = readdirSync(SCENES)
  .filter((f) => f.endsWith('.excalidraw'))
  .sort();

/**
 * What Excalidraw's own loading leaves out of a scene, by scene: a deleted element, an element
 * type it does not know (a later version's), and an arrow of one point (its "invisibly small"
 * rule). Everything else must come through with its id.
 */
const DROPPED_BY_EXCALIDRAW: Readonly<Record<string, readonly string[]>> = {
  'architecture.excalidraw': ['rec-12'],
  'arrows.excalidraw': ['arr-17'],
  'unknown.excalidraw': ['sti-4'],
};

interface Loaded {
  ids: string[];
  types: string[];
  saved: string;
}

let browser: Browser;
let server: Server;
let page: Page;
let ws: Workspace;

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'excalidraw-data.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    minify: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"', 'import.meta.env': '{}' },
    loader: { '.css': 'empty', '.woff2': 'empty', '.ttf': 'empty', '.png': 'empty', '.svg': 'empty' },
  });
  return out.outputFiles[0]!.text;
}

const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>excalidraw</title></head><body>
<script type="module">
import * as excalidraw from '/excalidraw.js';
window.excalidraw = excalidraw;
window.ready = true;
</script></body></html>`;

/** Load a scene file's text the way Excalidraw opens a file, and save it again as Excalidraw saves. */
async function load(text: string): Promise<Loaded> {
  return page.evaluate(async (file) => {
    const x = (window as unknown as { excalidraw: Record<string, (...a: unknown[]) => unknown> }).excalidraw;
    const data = (await x.loadFromBlob!(new Blob([file], { type: 'application/json' }), null, null)) as {
      elements: { id: string; type: string }[];
      appState: unknown;
      files: unknown;
    };
    return {
      ids: data.elements.map((e) => e.id),
      types: data.elements.map((e) => e.type),
      saved: x.serializeAsJSON!(data.elements, data.appState, data.files, 'local') as string,
    };
  }, text);
}

async function base(): Promise<string> {
  return (await readCanvas(ws, { ledger: 'in-browser' })).revision;
}

describe.runIf(run)("Excalidraw's own package, in Chromium, with the scenes the canvas exports", () => {
  beforeAll(async () => {
    const js = await bundle();
    server = createServer((req, res) => {
      if (req.url === '/excalidraw.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(js);
      } else if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PAGE);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: 60_000 });
    expect(problems).toEqual([]);
    ws = tempWorkspace();
    expect((await runMain(ws, ['create', 'in-browser', '--why', 'scenes for Excalidraw'])).code).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it.each(names)('%s: exported, it loads with every element Excalidraw knows, each by its id', async (name) => {
    const given = readFileSync(join(SCENES, name), 'utf8');
    const o = await insertNode(ws, { ledger: 'in-browser', into: 'root', base: await base(), why: `the ${name} sketch`, author: AUTHOR, payload: { excalidraw: given } });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    const exported = exportScene((await readCanvas(ws, { ledger: 'in-browser' })).canvas, o.node!);
    const loaded = await load(exported);
    const dropped = DROPPED_BY_EXCALIDRAW[name] ?? [];
    const expected = readScene(exported)
      .elements.map((e) => e.id)
      .filter((id) => !dropped.includes(id));
    expect(loaded.ids).toEqual(expected);
    expect(loaded.ids.length).toBe(readScene(exported).elements.length - dropped.length);
  });

  it.each(names)('%s: a scene Excalidraw saves comes back with every field, byte for byte', async (name) => {
    const { saved } = await load(readFileSync(join(SCENES, name), 'utf8'));
    const o = await insertNode(ws, { ledger: 'in-browser', into: 'root', base: await base(), why: `${name} as Excalidraw saved it`, author: AUTHOR, payload: { excalidraw: saved } });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    const exported = exportScene((await readCanvas(ws, { ledger: 'in-browser' })).canvas, o.node!);
    // Excalidraw saves JSON.stringify(scene, null, 2): the canonical whitespace, so equal bytes.
    expect(exported).toBe(`${saved}\n`);
    expect(JSON.parse(exported)).toEqual(JSON.parse(saved));
    const again = await replaceNode(ws, { ledger: 'in-browser', node: o.node!, base: await base(), why: 'saved again', author: AUTHOR, payload: { excalidraw: (await load(exported)).saved } });
    expect(again).toMatchObject({ outcome: 'rejected', code: 'NO_CHANGE' });
  });
});
