// canvas build --vendor-mermaid (docs/site.md, "Mermaid offline"): the pinned module is read from
// an installed package, refused when it is not the pinned build (with nothing written), copied
// into the site, written again only when its bytes change, and loaded by the pages from there.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { readVendoredMermaid } from '../../src/site/vendor-mermaid.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, ROOT, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

const VENDOR = join(ROOT, '.vendor', 'mermaid', 'package');
const ENTRY = join(VENDOR, MERMAID_PIN.entry);
// Under CI (.ci/run fetches the package) the tests that need the real bytes never skip.
const real = existsSync(ENTRY) || process.env.CI === 'true';
if (!real) process.stderr.write('note: --vendor-mermaid tests with the real package skipped: run scripts/vendor-mermaid.sh\n');

const temp = (name: string) => join(tempDir('canvas-vendor-'), name);

/** A folder holding a package.json and, when given, an entry module. */
function fakePackage(pkg: Record<string, unknown>, entry?: string): string {
  const dir = temp('mermaid');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  if (entry !== undefined) writeFileSync(join(dir, MERMAID_PIN.entry), entry);
  return dir;
}

/** A workspace with two canvases, one of them with a Mermaid figure (and `more` Mermaid canvases `flow-<n>`). */
async function workspace(more = 0): Promise<Workspace> {
  const ws = tempWorkspace();
  for (const ledger of ['flow', 'plain', ...Array.from({ length: more }, (_, i) => `flow-${i}`)]) {
    const made = await createCanvas(ws, { ledger, why: 'a canvas for the site', author: AUTHOR });
    if (made.outcome !== 'applied') throw new Error(JSON.stringify(made));
    const xml = ledger.startsWith('flow') ? '<figure kind="mermaid">graph TD\n  A --&gt; B</figure>' : '<text>no figure</text>';
    const o = await insertNode(ws, { ledger, why: 'what the page shows', author: AUTHOR, base: made.revision, into: 'root', payload: { xml } });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  }
  return ws;
}

function codeOf(f: () => unknown): { code: string; data: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    return e as { code: string; data: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

describe('reading the pinned Mermaid package', () => {
  it('refuses no package, another package, another version and other bytes', () => {
    const empty = temp('nothing');
    mkdirSync(empty);
    expect(codeOf(() => readVendoredMermaid(empty, '/')).code).toBe('MERMAID_NOT_FOUND');
    expect(codeOf(() => readVendoredMermaid(undefined, empty)).code).toBe('MERMAID_NOT_FOUND');
    expect(codeOf(() => readVendoredMermaid(fakePackage({ name: 'not-mermaid', version: '12.3.0' }), '/')).code).toBe('MERMAID_NOT_FOUND');
    const old = codeOf(() => readVendoredMermaid(fakePackage({ name: 'mermaid', version: '11.4.0' }, 'x'), '/'));
    expect(old).toMatchObject({ code: 'MERMAID_MISMATCH', data: { found: '11.4.0', pinned: '12.3.0' } });
    expect(codeOf(() => readVendoredMermaid(fakePackage({ name: 'mermaid', version: '12.3.0' }), '/'))).toMatchObject({
      code: 'MERMAID_NOT_FOUND',
      data: { path: MERMAID_PIN.entry },
    });
    const changed = codeOf(() => readVendoredMermaid(fakePackage({ name: 'mermaid', version: '12.3.0' }, 'export default {};\n'), '/'));
    expect(changed).toMatchObject({ code: 'MERMAID_MISMATCH', data: { pinned: MERMAID_PIN.integrity } });
  });

  it.runIf(real)('finds node_modules/mermaid upwards, takes the entry and every chunk module, and refuses a missing chunk', () => {
    const project = temp('project');
    const pkg = join(project, 'node_modules', 'mermaid');
    mkdirSync(join(pkg, MERMAID_PIN.chunkFolder), { recursive: true });
    cpSync(join(VENDOR, 'package.json'), join(pkg, 'package.json'));
    cpSync(ENTRY, join(pkg, MERMAID_PIN.entry));
    const chunks = readdirSync(join(VENDOR, MERMAID_PIN.chunkFolder)).filter((n) => n.endsWith('.mjs'));
    for (const n of chunks) cpSync(join(VENDOR, MERMAID_PIN.chunkFolder, n), join(pkg, MERMAID_PIN.chunkFolder, n));
    mkdirSync(join(project, 'a', 'b'), { recursive: true });
    const found = readVendoredMermaid(undefined, join(project, 'a', 'b'));
    expect(found.from).toBe(pkg);
    expect(found.files.map((f) => f.path)).toEqual([`_vendor/mermaid-12.3.0/${MERMAID_PIN.entry}`, ...chunks.sort().map((n) => `_vendor/mermaid-12.3.0/${MERMAID_PIN.chunkFolder}${n}`)]);
    expect(found.files[0]!.bytes.equals(readFileSync(ENTRY))).toBe(true);
    // A chunk the entry imports statically is gone: the copy would not run.
    const imported = /from"\.\/chunks\/mermaid\.esm\.min\/([^"]+)"/.exec(readFileSync(ENTRY, 'utf8'))![1]!;
    rmSync(join(pkg, MERMAID_PIN.chunkFolder, imported));
    expect(codeOf(() => readVendoredMermaid('node_modules/mermaid', project))).toMatchObject({
      code: 'MERMAID_NOT_FOUND',
      data: { path: `${MERMAID_PIN.chunkFolder}${imported}` },
    });
  });
});

describe('canvas build --vendor-mermaid', () => {
  it('refuses a package that is not the pinned build, and writes nothing', async () => {
    const ws = await workspace();
    const out = temp('site');
    const r = await runMain(ws, ['build', '--out', out, '--json', '--vendor-mermaid', fakePackage({ name: 'mermaid', version: '11.4.0' }, 'x')]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('MERMAID_MISMATCH');
    expect(existsSync(out)).toBe(false);
  });

  it.runIf(real)('puts the module into the site, loads it from there, rewrites nothing unchanged, and goes back to the CDN without the flag', async () => {
    const ws = await workspace();
    const out = temp('site');
    const first = await runMain(ws, ['build', '--out', out, '--json', '--vendor-mermaid', VENDOR]);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.vendored).toEqual({ mermaid: '12.3.0', files: report.vendored.files, written: report.vendored.files });
    expect(readFileSync(join(out, '_vendor/mermaid-12.3.0', MERMAID_PIN.entry)).equals(readFileSync(ENTRY))).toBe(true);
    const page = readFileSync(join(out, 'flow', 'index.html'), 'utf8');
    expect(page).toContain(`src="../_vendor/mermaid-12.3.0/${MERMAID_PIN.entry}" integrity="${MERMAID_PIN.integrity}"`);
    expect(page).not.toContain('cdn.jsdelivr.net');
    const again = JSON.parse((await runMain(ws, ['build', '--out', out, '--json', '--vendor-mermaid', VENDOR])).stdout);
    expect(again.vendored.written).toBe(0);
    expect(again.built).toEqual([]);
    const back = JSON.parse((await runMain(ws, ['build', '--out', out, '--json'])).stdout);
    expect(back.vendored).toBeUndefined();
    expect(back.built).toEqual(['flow', 'plain']);
    expect(readFileSync(join(out, 'flow', 'index.html'), 'utf8')).toContain(`src="${MERMAID_PIN.url}"`);
  });

  it.runIf(real)('the worker pool renders the pages as the build’s own thread does: with the site’s copy, and all again when the flag changes', async () => {
    const ws = await workspace(16);
    const out = temp('site');
    const pages = () =>
      readdirSync(out)
        .filter((n) => n.startsWith('flow'))
        .map((n) => readFileSync(join(out, n, 'index.html'), 'utf8'));
    const vendored = JSON.parse((await runMain(ws, ['build', '--out', out, '--json', '--workers', '2', '--vendor-mermaid', VENDOR])).stdout);
    expect(vendored.built).toHaveLength(18);
    expect(pages()).toHaveLength(17);
    for (const page of pages()) expect(page).toContain(`src="../_vendor/mermaid-12.3.0/${MERMAID_PIN.entry}"`);
    // Switching the flag off is another renderer version: every page again, from the CDN.
    const back = JSON.parse((await runMain(ws, ['build', '--out', out, '--json', '--workers', '2'])).stdout);
    expect(back.built).toHaveLength(18);
    for (const page of pages()) expect(page).toContain(`src="${MERMAID_PIN.url}"`);
  });
});
