// The served tab as a person meets it first (docs/serve.md; docs/site.md, "The desk"), in real
// Chromium: every served page (the index with its desk, a canvas page) runs its scripts and styles
// with no Content-Security-Policy violation, reported by the page's own `securitypolicyviolation`
// events or by Chromium's console; the index's search and sort show, as on the built index; the
// desk lists what waits. The server runs in this process on a free loopback port.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Served, servedWorkspace, TOKEN } from './serve-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!existsSync(CHROMIUM) && !run) console.log(`test/serve/serve-desk-in-browser.test.ts: skipped, no Chromium at ${CHROMIUM}`);

let browser: Browser;
let s: Served;
const contexts: BrowserContext[] = [];

/** A context that refuses anything but this server, and records every CSP violation of its pages. */
async function context(): Promise<{ c: BrowserContext; violations: string[] }> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(c);
  await c.route('**/*', (route) => (route.request().url().startsWith(s.server.origin) ? route.continue() : route.abort('internetdisconnected')));
  const violations: string[] = [];
  await c.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text));
  await c.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation(t: string): void }).reportViolation(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  c.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  return { c, violations };
}

/** Open a served path as a user opens the URL canvas serve printed, the token in it. */
async function open(c: BrowserContext, path: string): Promise<Page> {
  const p = await c.newPage();
  await p.goto(`${s.server.origin}${path}?token=${TOKEN}`);
  expect(p.url()).toBe(`${s.server.origin}${path}`);
  await p.waitForSelector('#live-status[data-state="live"]');
  return p;
}

describe.runIf(run)('the served tab in Chromium: policy and desk', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    s = await servedWorkspace();
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.server.close();
  });

  it('no served page raises a CSP violation, and the index runs its own script: search and sort show', async () => {
    const { c, violations } = await context();
    const index = await open(c, '/');
    await open(c, '/demo/');
    // A violation is reported asynchronously: a round trip through each page lets the last ones arrive.
    for (const p of c.pages()) await p.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    expect(violations).toEqual([]);
    expect(await index.locator('#index-tools').isVisible()).toBe(true);
    await index.locator('#index-search').fill('demo');
    await index.waitForFunction(() => document.getElementById('index-count')?.textContent === '1 of 1 shown.');
  });

  it('the served index opens with the desk: the open question, linked to its node', async () => {
    const { c } = await context();
    const index = await open(c, '/');
    const desk = index.locator('#desk');
    await desk.waitFor();
    const box = await desk.boundingBox();
    const table = await index.locator('table.canvases').boundingBox();
    expect(box!.y).toBeLessThan(table!.y);
    const q = index.locator(`#desk-questions li[data-node="${s.ids.question}"]`);
    expect(await q.locator('.desk-what a').getAttribute('href')).toBe(`demo/index.html#${s.ids.question}`);
    expect(await q.locator('.desk-what').textContent()).toBe('Poll or watch?');
  });
});
