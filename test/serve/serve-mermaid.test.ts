// A Mermaid figure arriving in a live update (docs/serve.md, "Live"), in real Chromium: written and
// changed from the CLI while a served page is open, it is drawn in place by the page's script with
// the pinned module, without a reload and within the page's own strict policy. The pinned CDN URL
// is answered from the vendored package (scripts/vendor-mermaid.sh); every other request leaving
// the server is refused and counted.
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { answerFromVendor, vendoredMermaid } from '../helpers/vendored-mermaid.js';
import { baseOf, runCli } from '../helpers/workspace.js';
import { revisionOf, type Served, servedWorkspace } from './serve-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ready = existsSync(CHROMIUM) && vendoredMermaid;
const run = ready || process.env.CI === 'true';
if (!run) process.stderr.write('note: live Mermaid test skipped: install Chromium and run scripts/vendor-mermaid.sh\n');

let browser: Browser;
let s: Served;
/** Requests that left the server other than for the pinned module (refused). */
const outside: string[] = [];
/** Requests for the pinned entry module. */
const entries: string[] = [];

/** A page of the canvas, live, that records what its policy refused. */
async function openLive(): Promise<Page> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await c.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(s.server.origin)) return route.continue();
    if (url === MERMAID_PIN.url) entries.push(url);
    if (await answerFromVendor(route)) return;
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  await c.addInitScript(() => {
    const w = window as unknown as { refused: string[] };
    w.refused = [];
    document.addEventListener('securitypolicyviolation', (e) => w.refused.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const p = await c.newPage();
  await p.goto(s.server.url);
  await p.goto(`${s.server.origin}/demo/`);
  await p.waitForSelector('#live-status[data-state="live"]');
  // Survives an update in place; a reload would lose it.
  await p.evaluate(() => ((window as unknown as { same: boolean }).same = true));
  return p;
}

/** Write a figure from the CLI: insert after `after`, or replace `id`; returns the node id. */
async function writeFigure(source: string, at: { after: string } | { id: string }): Promise<string> {
  const base = baseOf((await runCli(s.ws, ['read', 'demo'])).stdout);
  const xml = `<figure kind="mermaid" caption="the path">${source.replaceAll('>', '&gt;')}</figure>`;
  const args = 'after' in at ? ['insert', 'demo', '--after', at.after] : ['replace', 'demo', at.id];
  const r = await runCli(s.ws, [...args, '--xml', xml, '--base', base, '--why', 'the path as a diagram', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { node: string }).node;
}

/** Wait until the figure's block holds a drawing naming `label`, and return the drawing's labels. */
async function drawn(p: Page, id: string, label: string): Promise<string> {
  await p.waitForFunction(([id, label]) => document.querySelector(`#${id} pre.mermaid svg`)?.textContent?.includes(label) === true, [id, label] as const, { timeout: 20_000 });
  return p.locator(`#${id} pre.mermaid svg`).evaluate((svg) => svg.textContent ?? '');
}

describe.runIf(run)('canvas serve: a Mermaid figure in a live update, in Chromium', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
    s = await servedWorkspace();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.server.close();
  });

  it('is drawn in place when written and redrawn when changed, without a reload, within the page policy', async () => {
    const a = await openLive();
    expect(await a.locator('pre.mermaid').count()).toBe(0);
    const figure = await writeFigure('flowchart LR\n  Alpha --> Beta', { after: s.ids.question });
    expect(await drawn(a, figure, 'Beta')).toContain('Alpha');
    expect(await a.locator('code.revision').textContent()).toBe(await revisionOf(s.ws));

    // A second page opened now loads the module itself, as the built page does; both redraw a change.
    const b = await openLive();
    expect(await drawn(b, figure, 'Beta')).toContain('Alpha');
    await writeFigure('flowchart LR\n  Alpha --> Gamma', { id: figure });
    for (const p of [a, b]) {
      expect(await drawn(p, figure, 'Gamma')).not.toContain('Beta');
      expect(await p.evaluate(() => (window as unknown as { same?: boolean }).same)).toBe(true);
      expect(await p.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([]);
      // Drawn, not shown as source; the drawing at its own width, as the page's start-up sets it.
      expect(await p.locator(`#${figure} pre.mermaid`).getAttribute('data-processed')).toBe('true');
      expect(await p.locator(`#${figure} pre.mermaid svg`).getAttribute('width')).toMatch(/^\d+(\.\d+)?$/);
    }
    expect(outside).toEqual([]);
    // Each page fetched the pinned entry once: the update reuses the module its script element loaded.
    expect(entries).toHaveLength(2);
  });
});
