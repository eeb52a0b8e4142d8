// A site built with --vendor-mermaid draws its diagrams offline (docs/site.md, "Mermaid offline"):
// Chromium opens the built page on a test origin answered from the output directory, with every
// other request refused (the CDN included), and the Mermaid figure is drawn from the site's copy.
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { runMain } from '../helpers/run-main.js';
import { vendoredMermaid } from '../helpers/vendored-mermaid.js';
import { AUTHOR, ROOT, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = (existsSync(CHROMIUM) && vendoredMermaid) || process.env.CI === 'true';
if (!run) process.stderr.write('note: vendored Mermaid in-browser test skipped: install Chromium and run scripts/vendor-mermaid.sh\n');
const ORIGIN = 'https://canvas.test/';

describe.runIf(run)('a site built with --vendor-mermaid, in Chromium with nothing but the site reachable', () => {
  it('draws the diagram from the site’s own copy of the pinned module', async () => {
    const ws = tempWorkspace();
    const made = await createCanvas(ws, { ledger: 'flow', why: 'a canvas with a diagram', author: AUTHOR });
    if (made.outcome !== 'applied') throw new Error(JSON.stringify(made));
    const xml = '<figure kind="mermaid" caption="the path">flowchart LR\n  Offline --&gt; Drawn</figure>';
    const o = await insertNode(ws, { ledger: 'flow', why: 'the path', author: AUTHOR, base: made.revision, into: 'root', payload: { xml } });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    const site = join(tempDir('canvas-vendored-'), 'site');
    const built = await runMain(ws, ['build', '--out', site, '--vendor-mermaid', join(ROOT, '.vendor', 'mermaid', 'package')]);
    expect(built.code, built.stderr).toBe(0);

    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const context = await browser.newContext();
      const refused: string[] = [];
      const served: string[] = [];
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        if (!url.startsWith(ORIGIN)) {
          refused.push(url);
          return route.abort('internetdisconnected');
        }
        const rel = url.slice(ORIGIN.length).split(/[?#]/)[0]!;
        const file = join(site, rel.endsWith('/') || rel === '' ? `${rel}index.html` : rel);
        if (!file.startsWith(site) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
        served.push(rel);
        const type = extname(file) === '.html' ? 'text/html; charset=utf-8' : extname(file) === '.mjs' ? 'text/javascript' : 'application/octet-stream';
        return route.fulfill({ status: 200, contentType: type, body: readFileSync(file) });
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      await page.goto(`${ORIGIN}flow/`);
      await page.waitForFunction(() => document.querySelector('pre.mermaid svg')?.textContent?.includes('Drawn') === true, undefined, { timeout: 30_000 });
      expect(refused).toEqual([]);
      expect(served).toContain('_vendor/mermaid-12.3.0/dist/mermaid.esm.min.mjs');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
