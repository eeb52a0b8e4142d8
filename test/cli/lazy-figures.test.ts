import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Loaded, loadedBy, matching } from '../helpers/loaded-modules.js';
import { baseOf, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

const HEAVY = /node_modules\/(jsdom|dompurify|@dagrejs)\//;

describe('heavy figure modules load only when a figure needs them', () => {
  it('canvas read loads neither jsdom, DOMPurify nor dagre; an insert of an svg figure loads jsdom', async () => {
    const ws = tempWorkspace();
    const heavy = (r: Loaded) => [...r.packages.filter((u) => HEAVY.test(u)), ...matching(r.modules, HEAVY)];

    const created = await loadedBy(ws, ['create', 'lazy-1', '--why', 'start the canvas']);
    expect(created.code).toBe(0);
    expect(heavy(created)).toEqual([]);

    const read = await loadedBy(ws, ['read', 'lazy-1']);
    expect(read.code).toBe(0);
    expect(read.bundles).toContain('canvas.cjs'); // the probe saw the CLI load
    expect(heavy(read)).toEqual([]);

    // The control: the same probe does see jsdom and DOMPurify when an svg figure is written.
    const svg = '<figure kind="svg"><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg></figure>';
    const insert = await loadedBy(ws, ['insert', 'lazy-1', '--into', 'root', '--base', baseOf(read.stdout), '--why', 'add a picture', '--xml', svg]);
    expect(insert.code, insert.stderr).toBe(0);
    expect(insert.packages.some((u) => /node_modules\/jsdom\//.test(u))).toBe(true);
    expect(insert.packages.some((u) => /node_modules\/dompurify\//.test(u))).toBe(true);

    // Reading a canvas that holds an svg figure stays light too.
    const again = await loadedBy(ws, ['read', 'lazy-1']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('<svg');
    expect(heavy(again)).toEqual([]);

    // Rendering a diagram is what runs dagre (from the lazy bundle), and only then.
    const diagram = '<figure kind="diagram">diagram 1\nnode a "A"\nnode b "B"\na -> b</figure>';
    const drawn = await runCli(ws, ['insert', 'lazy-1', '--into', 'root', '--base', baseOf(again.stdout), '--why', 'add a drawing', '--xml', diagram]);
    expect(drawn.code, drawn.stderr).toBe(0);
    const readBack = await loadedBy(ws, ['read', 'lazy-1']);
    expect(heavy(readBack)).toEqual([]);
    const render = await loadedBy(ws, ['render', 'lazy-1']);
    expect(render.code, render.stderr).toBe(0);
    expect(render.bundles).toContain('canvas-lazy.cjs');
    expect(matching(render.modules, /^node_modules\/@dagrejs\//).length).toBeGreaterThan(0);
  });
});

describe('the CLI bundles keep heavy figure modules out of the entry', () => {
  it('canvas.cjs holds no jsdom, DOMPurify or dagre code; the SVG checker requires jsdom only when it runs', () => {
    const entry = readFileSync(join(ROOT, 'dist', 'cli', 'canvas.cjs'), 'utf8');
    const lazy = readFileSync(join(ROOT, 'dist', 'cli', 'canvas-lazy.cjs'), 'utf8');
    // The bundle names each module it holds in a comment: `// node_modules/...` or `// src/...`.
    expect(entry).not.toMatch(/^\/\/ node_modules\/(jsdom|dompurify|@dagrejs)\//m);
    expect(lazy).toMatch(/^\/\/ node_modules\/@dagrejs\/dagre\//m);
    // jsdom and DOMPurify are packages the bundles require, inside the checker's function body.
    expect(entry).toMatch(/^\/\/ src\/model\/svg\/check-svg\.ts$/m);
    expect(entry).toMatch(/^ {4}.*require\("jsdom"\)/m);
  });
});
