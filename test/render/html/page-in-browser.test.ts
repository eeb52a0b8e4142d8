// The page in a real browser (docs/projections.md, "The page" and "Goldens"). The pinned Mermaid
// module, served from the package's own files in place of the CDN (scripts/vendor-mermaid.sh
// fetches them; .ci/run runs it), draws the escaped source under the page's own
// Content-Security-Policy, with its integrity hash checked; a wrong hash blocks it; offline the
// source stays readable; a source that tries to close its <pre> runs nothing. The stylesheet
// applies under its hash, on a phone, in dark mode and on paper. Every request is answered by the
// test: nothing leaves the machine.
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../../src/render/figures/mermaid-pin.js';
import { pageOf } from '../page-of.js';
import { ROOT } from '../../helpers/workspace.js';
import { snapshotOf } from '../snapshot-of.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VENDOR = join(ROOT, '.vendor', 'mermaid', 'package');
const CDN = `https://cdn.jsdelivr.net/npm/mermaid@${MERMAID_PIN.version}/`;
const ORIGIN = 'https://canvas.test/';
// On CI both are installed by .ci/run, so there the test never skips.
const ready = existsSync(CHROMIUM) && existsSync(join(VENDOR, 'dist', 'mermaid.esm.min.mjs'));
const run = ready || process.env.CI === 'true';

const SOURCE = 'flowchart LR\n  a["&lt;/pre&gt;&lt;script&gt;window.pwned = 1&lt;/script&gt;"] --&gt; b[two]';

interface Loaded {
  page: Page;
  requests: string[];
  problems: string[];
}

let browser: Browser;

async function open(html: string, options: { cdn: 'serve' | 'offline' } = { cdn: 'serve' }): Promise<Loaded> {
  const context: BrowserContext = await browser.newContext();
  const requests: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url === `${ORIGIN}page.html`) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    if (url.startsWith(CDN) && options.cdn === 'serve') {
      const file = join(VENDOR, url.slice(CDN.length).split(/[?#]/)[0]!);
      if (!file.startsWith(VENDOR) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
      const type = extname(file) === '.mjs' || extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream';
      return route.fulfill({ status: 200, contentType: type, headers: { 'access-control-allow-origin': '*' }, body: readFileSync(file) });
    }
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|integrity/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${ORIGIN}page.html`, { waitUntil: 'load' });
  return { page, requests, problems };
}

describe.runIf(run)('the page in Chromium', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is drawn by the pinned module under the page CSP, with no violation and nothing run from the source', async () => {
    const html = await pageOf(snapshotOf(`<figure id="m1" v="1" kind="mermaid" caption="flow">${SOURCE}</figure>`));
    const { page, requests, problems } = await open(html);
    await page.waitForSelector('pre.mermaid svg', { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('pre.mermaid svg').count()).toBe(1);
    expect(await page.locator('#m1 script').count()).toBe(0);
    expect(problems).toEqual([]);
    expect(requests).toContain(MERMAID_PIN.url);
    expect(requests.filter((u) => u !== `${ORIGIN}page.html` && !u.startsWith(CDN))).toEqual([]);
    await page.context().close();
  });

  it('is blocked by a wrong integrity hash, and the source stays readable', async () => {
    const html = (await pageOf(snapshotOf(`<figure id="m1" v="1" kind="mermaid">${SOURCE}</figure>`))).replace(
      MERMAID_PIN.integrity,
      'sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    const { page, problems } = await open(html);
    // Wait for the browser to report the blocked module, however long a loaded machine takes.
    await expect.poll(() => problems.join('\n'), { timeout: 20_000 }).toMatch(/integrity|digest/i);
    expect(await page.locator('pre.mermaid svg').count()).toBe(0);
    expect(await page.locator('pre.mermaid').textContent()).toContain('window.pwned = 1');
    await page.context().close();
  });

  it('offline, leaves the escaped source readable in the page', async () => {
    const html = await pageOf(snapshotOf(`<figure id="m1" v="1" kind="mermaid">${SOURCE}</figure>`));
    const { page, requests } = await open(html, { cdn: 'offline' });
    // Wait until the page has asked for the module (and was refused), not for a fixed time.
    await expect.poll(() => requests.some((u) => u.startsWith(CDN)), { timeout: 20_000 }).toBe(true);
    expect(await page.locator('pre.mermaid').textContent()).toBe('flowchart LR\n  a["</pre><script>window.pwned = 1</script>"] --> b[two]');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.context().close();
  });

  it('on a page without a Mermaid figure, asks for nothing beyond the page, and applies its stylesheet by hash', async () => {
    const html = await pageOf(snapshotOf('<text id="t1" v="1">plain</text><question id="q1" v="1">Who owns it?</question>'));
    const { page, requests, problems } = await open(html);
    expect(requests).toEqual([`${ORIGIN}page.html`]);
    expect(problems).toEqual([]);
    expect(await page.locator('#q1').evaluate((el) => getComputedStyle(el).borderLeftWidth)).toBe('4px');
    await page.context().close();
  });

  it("opens a node's reasons from its id, as a panel over the page, at 1280 and 390 px, by mouse and keyboard, and prints neither", async () => {
    const entry = (commit: string, reason: string) => ({ commit, op: 'replace', node: 't1', author: 'leo | by-hand', reason, date: '2026-01-01T00:00:00.000Z' });
    const long = 'the measurement moved, so the paragraph says what holds now and why the old figure was wrong '.repeat(2).trim();
    const html = await pageOf(
      snapshotOf('<section id="s1" v="1" title="Decided"><text id="t1" v="2">Retry five times.</text></section><text id="t2" v="1">After.</text>', {
        history: { s1: [entry('a'.repeat(40), 'a place')], t1: [entry('b'.repeat(40), 'noted'), entry('c'.repeat(40), long)], t2: [entry('d'.repeat(40), 'after')] },
      }),
    );
    const { page, problems } = await open(html);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const node = (await page.locator('#t1').boundingBox())!;
      const id = page.locator('#t1 > details.why > summary');
      const box = (await id.boundingBox())!;
      // Quiet: the id alone, at the node's top right, the text beside it; the list closed.
      expect(await id.textContent()).toBe('t1');
      expect(Math.abs(box.x + box.width - (node.x + node.width))).toBeLessThan(1);
      expect(Math.abs(box.y - node.y)).toBeLessThan(2);
      expect(await page.locator('#t1 > details.why > ol').isVisible()).toBe(false);
      const text = (await page.locator('#t1 > p').boundingBox())!;
      expect(text.y, 'the text starts on the id line').toBeLessThan(box.y + box.height);
      await id.click();
      const panel = page.locator('#t1 > details.why > ol');
      expect(await panel.isVisible()).toBe(true);
      expect(await panel.locator('li').allTextContents()).toEqual(['replace by leo | by-hand, 2026-01-01 00:00 UTC: noted bbbbbbb', `replace by leo | by-hand, 2026-01-01 00:00 UTC: ${long} ccccccc`]);
      // Over the page, not pushing it down, and inside the screen.
      const shown = (await panel.boundingBox())!;
      expect(shown.y).toBeGreaterThanOrEqual(box.y + box.height);
      expect(shown.x).toBeGreaterThanOrEqual(0);
      expect(shown.x + shown.width).toBeLessThanOrEqual(width);
      expect((await page.locator('#t1 > p').boundingBox())!.y).toBe(text.y);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await id.click();
      expect(await panel.isVisible()).toBe(false);
    }
    // A section's id sits on its heading's line.
    const heading = (await page.locator('#s1 > h2').boundingBox())!;
    const sid = (await page.locator('#s1 > details.why > summary').boundingBox())!;
    expect(sid.y).toBeGreaterThanOrEqual(heading.y - 1);
    expect(sid.y + sid.height).toBeLessThanOrEqual(heading.y + heading.height + 1);
    // The keyboard opens it too.
    await page.locator('#t2 > details.why > summary').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#t2 > details.why > ol').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#t2 > details.why').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('reads on a phone, in dark mode and on paper', async () => {
    const long = 'a-very-long-word-that-would-overflow-a-narrow-screen-'.repeat(4);
    const html = await pageOf(
      snapshotOf(`<text id="t1" v="1">${long}</text><table id="tb" v="1"><row><cell>one</cell><cell>two</cell><cell>three</cell><cell>four</cell><cell>five</cell><cell>six</cell></row></table>`),
    );
    const { page } = await open(html);
    await page.setViewportSize({ width: 360, height: 640 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(light);
    expect(await page.locator('#t1 .nid').evaluate((el) => getComputedStyle(el).display)).not.toBe('none');
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    expect(await page.locator('#t1 .nid').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    await page.context().close();
  });
});
