// The pages and the index, for people, in a real browser (docs/projections.md, "Finding one's
// way"; docs/site.md, "The index"). Headless Chromium (Debian's, driven by
// playwright-core) opens every golden page and a built site of the example workspace, each served
// on a test origin, and axe-core finds no serious or critical violation in light or dark mode.
// Screenshots of the site at 1280 and 390 px go to test-artifacts/pages/ (gitignored), to be
// looked at. Requests for the pinned Mermaid module are answered from the vendored package in place
// of the CDN; every other request leaving the test origin is refused. Nothing leaves the machine.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { caseNames, SNAPSHOTS } from '../render/golden-cases.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, ROOT } from '../helpers/workspace.js';
import { exampleWorkspace } from './site-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VENDOR = join(ROOT, '.vendor', 'mermaid', 'package');
const CDN = `https://cdn.jsdelivr.net/npm/mermaid@${MERMAID_PIN.version}/`;
const ORIGIN = 'https://canvas.test/';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'pages');
/** axe-core's own source, injected into each page. */
const AXE = axe.source;
const ready = existsSync(CHROMIUM) && existsSync(join(VENDOR, MERMAID_PIN.url.slice(CDN.length)));
// Under CI (.ci/run installs Chromium and fetches the Mermaid files) a missing browser fails.
const run = ready || process.env.CI === 'true';
if (!run) process.stderr.write('note: page accessibility tests skipped: install Chromium and run scripts/vendor-mermaid.sh\n');

const SITE_PAGES = ['index.html', 'concurrency/index.html', 'node-identity/index.html', 'projections/index.html', 'store-substrate/index.html'];

let browser: Browser;
let site: string;
/** The figure holding a Mermaid sequence diagram of four participants with long messages, on the projections page. */
let sequence: string;

/** Four participants, and messages longer than the space between two of them. */
const SEQUENCE = [
  'sequenceDiagram',
  '  participant Agent as Planning agent',
  '  participant Store as Canvas store',
  '  participant Git as Git repository',
  '  participant Person as Person at the desk',
  '  Agent->>Store: replace b7 --base 3f2a91c --why "the measurement changed, so the paragraph says what holds now"',
  '  Store->>Git: one commit naming b7, with Canvas-Base and Canvas-Previous trailers, refs moved in one transaction',
  '  Git-->>Store: main and refs/canvas/projections moved together',
  '  Store-->>Agent: applied, with the diff of everything else that changed since its base',
  '  Person->>Store: answer the open question from the desk, with a reason',
  '  Store-->>Person: applied: the desk and every open tab update live',
].join('\n');
/** The page the checks of script-enabled pages share, one navigation per check (a context and a page cost about 0.3 s each to start). */
let reader: Opened | null = null;

/** A golden page as it was rendered: the stylesheet and its hash put back where the markers are. */
function goldenPage(name: string): string {
  const css = readFileSync(join(ROOT, 'templates', 'page.css'), 'utf8');
  const hash = `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}`;
  const page = readFileSync(join(SNAPSHOTS, name, 'page.html'), 'utf8');
  return page.replace(/<style>\/\* templates\/page\.css, byte for byte: [^*]*\*\/\n<\/style>/, () => `<style>${css}</style>`).replace('sha256-of-templates/page.css', hash);
}

interface Opened {
  page: Page;
  /** Requests that left the test origin (refused, and counted here), since the page was last opened. */
  outside: string[];
  /** Console errors and uncaught exceptions, since the page was last opened. */
  problems: string[];
  /** Ends the test's use of the page: closes its context unless it is the shared one. */
  done(): Promise<void>;
}

/**
 * A page of the test origin, in a context of its own: `golden/<case>.html` is the golden page of
 * that case, any other path a file of the built site; the CDN's Mermaid is served from the
 * vendored package, and every other request is refused and counted.
 */
async function newReader(javaScript: boolean): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: javaScript });
  const opened: Opened = { page: await context.newPage(), outside: [], problems: [], done: () => context.close() };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const rel = url.startsWith(ORIGIN) ? url.slice(ORIGIN.length).split(/[?#]/)[0]! : null;
    if (rel?.startsWith('golden/')) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: goldenPage(rel.slice(7, -5)) });
    if (rel !== null) {
      const file = join(site, rel);
      if (!file.startsWith(site) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
      const type = extname(file) === '.html' ? 'text/html; charset=utf-8' : extname(file) === '.mjs' ? 'text/javascript' : 'application/octet-stream';
      return route.fulfill({ status: 200, contentType: type, body: readFileSync(file) });
    }
    if (url.startsWith(CDN)) {
      const file = join(VENDOR, url.slice(CDN.length).split(/[?#]/)[0]!);
      if (!file.startsWith(VENDOR) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: readFileSync(file) });
    }
    opened.outside.push(url);
    return route.abort('internetdisconnected');
  });
  opened.page.on('console', (m) => {
    if (m.type() === 'error') opened.problems.push(m.text());
  });
  opened.page.on('pageerror', (e) => opened.problems.push(String(e)));
  return opened;
}

/**
 * Open a path of the test origin (see {@link newReader}), at 1280 px in the light scheme. A page
 * with its script runs in the shared page (a new document at each navigation, so nothing of the
 * last check stays); one without, in a context of its own.
 */
async function open(path: string, options: { javaScript?: boolean } = {}): Promise<Opened> {
  let opened: Opened;
  if (options.javaScript === false) opened = await newReader(false);
  else {
    reader ??= { ...(await newReader(true)), done: async () => {} };
    opened = reader;
    opened.outside.length = 0;
    opened.problems.length = 0;
    await opened.page.setViewportSize({ width: 1280, height: 900 });
    await opened.page.emulateMedia({ colorScheme: 'light' });
  }
  const { page } = opened;
  await page.goto(`${ORIGIN}${path}`, { waitUntil: 'load' });
  // A Mermaid figure is drawn after load: wait for it, so the page is checked as a reader sees it.
  const mermaid = page.locator('pre.mermaid');
  for (let i = 0; i < (await mermaid.count()); i++) await mermaid.nth(i).locator('svg').waitFor({ timeout: 30_000 });
  return opened;
}

/** The serious and critical violations axe-core finds, one line each. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  type Axe = { run: (c: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
  // The WCAG 2.x A and AA rules: what "accessible" is held to (the best-practice rules are advice).
  const result = await page.evaluate(() => (window as unknown as { axe: Axe }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Check a page light at 1280 px and dark at 390 px (where wide things must scroll inside their own
 * boxes, never the page), keeping screenshots when `shot` names them: `all` keeps both schemes at
 * both widths, `some` the two checked.
 */
async function checkPage(path: string, shot: { name: string; keep: 'all' | 'some' } | null): Promise<void> {
  const { page, outside, problems, done } = await open(path);
  const keep = async (width: number, scheme: string, only: 'all' | 'some') => {
    if (shot && (shot.keep === 'all' || only === 'some')) await page.screenshot({ path: join(ARTIFACTS, `${shot.name}-${width}-${scheme}.png`), fullPage: true });
  };
  const found: Record<string, string[]> = {};
  await page.emulateMedia({ colorScheme: 'light' });
  found['light 1280'] = await violations(page);
  await keep(1280, 'light', 'some');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keep(1280, 'dark', 'all');
  await page.setViewportSize({ width: 390, height: 844 });
  found['dark 390'] = await violations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 390 px`).toBeLessThanOrEqual(390);
  await keep(390, 'dark', 'some');
  await page.emulateMedia({ colorScheme: 'light' });
  await keep(390, 'light', 'all');
  // Every node's reasons opened (docs/projections.md, "Why is this here?"): the panels are held to
  // the same rules, and none widens the page on a phone.
  const panels = await page.locator('details.why').evaluateAll((all) => all.map((d) => ((d as HTMLDetailsElement).open = true)).length);
  if (panels > 0) {
    found['reasons open, light 390'] = await violations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 390 px, reasons open`).toBeLessThanOrEqual(390);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 844 });
    found['reasons open, dark 1280'] = await violations(page);
  }
  expect(found, path).toEqual({ 'light 1280': [], 'dark 390': [], ...(panels > 0 ? { 'reasons open, light 390': [], 'reasons open, dark 1280': [] } : {}) });
  expect(problems, path).toEqual([]);
  expect(outside, path).toEqual([]);
  await done();
}

describe.runIf(run)('the pages and the index in Chromium', () => {
  beforeAll(async () => {
    const ws = await exampleWorkspace();
    const escaped = SEQUENCE.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
    const base = baseOf((await runMain(ws, ['read', 'projections'])).stdout);
    const added = await runMain(ws, [
      'insert',
      'projections',
      '--into',
      'root',
      '--xml',
      `<figure kind="mermaid" caption="A write, from the agent to the desk">${escaped}</figure>`,
      '--base',
      base,
      '--why',
      'the sequence of one write',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    sequence = (JSON.parse(added.stdout) as { node: string }).node;
    site = join(tempDir('canvas-pages-'), 'site');
    const built = await runMain(ws, ['build', '--out', site]);
    expect(built.code, built.stderr).toBe(0);
    browser = await chromium.launch({ executablePath: CHROMIUM });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the index: a table whose headers hold on one line at 1280 px, cards at 390 px, search and sort by its own script', async () => {
    const { page, problems, done } = await open('index.html');
    const names = () => page.locator('table.canvases tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.name));
    // Every header on one line, and no column squeezed to a sliver.
    const headers = await page.locator('table.canvases th').evaluateAll((ths) =>
      ths.map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return { text: th.textContent, lines, width: th.getBoundingClientRect().width };
      }),
    );
    expect(headers.filter((h) => h.lines > 1 || h.width < 48)).toEqual([]);
    expect(await page.locator('#canvas-projections .summary').textContent()).toContain('People and agents need the canvas');
    // Search: every word must match, case aside; the count says how many are shown.
    await page.locator('#index-search').fill('IDENTITY rules');
    expect(await names()).toEqual(['node-identity']);
    expect(await page.locator('#index-count').textContent()).toBe('1 of 4 shown.');
    await page.locator('#index-search').fill('no such canvas anywhere');
    expect(await names()).toEqual([]);
    expect(await page.locator('#index-count').textContent()).toBe('No canvas matches.');
    await page.locator('#index-search').fill('');
    // Sort: open questions, most first, ties by name; name; last edit, newest first.
    await page.locator('#index-sort').selectOption('open');
    expect(await names()).toEqual(['concurrency', 'projections', 'store-substrate', 'node-identity']);
    await page.locator('#index-sort').selectOption('name');
    expect(await names()).toEqual(['concurrency', 'node-identity', 'projections', 'store-substrate']);
    await page.locator('#index-sort').selectOption('edited');
    const edited = await page.locator('table.canvases tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.edited ?? ''));
    expect(edited).toEqual([...edited].sort().reverse());
    // On a phone each canvas is a card: a block of its own, no wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = await page.locator('table.canvases tbody tr').evaluateAll((rows) => rows.map((r) => ({ display: getComputedStyle(r).display, width: r.getBoundingClientRect().width })));
    for (const card of cards) {
      expect(card.display).toBe('block');
      expect(card.width).toBeLessThanOrEqual(390);
      expect(card.width).toBeGreaterThan(300);
    }
    expect(problems).toEqual([]);
    await done();
  });

  it('the index without its script: no control that does nothing, every canvas listed by name', async () => {
    const { page, done } = await open('index.html', { javaScript: false });
    expect(await page.locator('#index-tools').isVisible()).toBe(false);
    const names = await page.locator('table.canvases tbody tr').evaluateAll((rows) => rows.filter((r) => (r as HTMLElement).offsetParent !== null).map((r) => (r as HTMLElement).dataset.name));
    expect(names).toEqual(['concurrency', 'node-identity', 'projections', 'store-substrate']);
    await done();
  });

  it('a canvas page: the skip link shows on the first Tab and moves past the header; the back link leads to the index', async () => {
    const { page, done } = await open('store-substrate/index.html');
    const skip = page.locator('a.skip-link');
    expect((await skip.boundingBox())!.y).toBeLessThan(0);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => location.hash)).toBe('#page-main');
    await page.locator('nav.site-nav a').click();
    await page.waitForURL(`${ORIGIN}index.html`);
    expect(await page.locator('h1').textContent()).toBe('Canvases');
    await done();
  });

  it('a figure: in dark mode its panel sits beside the node id, never under it; on a phone a wide diagram scrolls at its own size', async () => {
    const { page, done } = await open('store-substrate/index.html');
    await page.emulateMedia({ colorScheme: 'dark' });
    const figure = page.locator('figure.figure-diagram').first();
    const boxes = async () => ({ id: (await figure.locator('.why > summary').boundingBox())!, panel: (await figure.locator('.drawing').boundingBox())! });
    const { id, panel } = await boxes();
    expect(await figure.locator('.drawing').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(253, 253, 252)');
    expect(panel.x + panel.width <= id.x || id.y + id.height <= panel.y, 'the id is not over the light panel').toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    const drawn = await figure.locator('.drawing').evaluate((el) => {
      const svg = el.querySelector('svg')!;
      return { shown: svg.getBoundingClientRect().width, own: Number(svg.getAttribute('width')), box: el.clientWidth, scroll: el.scrollWidth };
    });
    expect(drawn.shown).toBeCloseTo(drawn.own, 0);
    expect(drawn.scroll).toBeGreaterThan(drawn.box);
    await done();
  });

  it('a Mermaid sequence diagram of four participants stays in its column at 1280 and 390 px: it scrolls inside its own box, never the page', async () => {
    const { page, problems, done } = await open('projections/index.html');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const drawn = await page.locator(`figure[id="${sequence}"] pre.mermaid`).evaluate((pre) => {
        const svg = pre.querySelector('svg')!;
        const column = document.querySelector('main')!.getBoundingClientRect();
        const box = pre.getBoundingClientRect();
        const picture = svg.getBoundingClientRect();
        const style = getComputedStyle(pre);
        const inner = box.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight);
        return {
          boxInColumn: box.left >= column.left - 0.5 && box.right <= column.right + 0.5,
          // The picture stays inside its box, or the box scrolls to show the rest of it.
          pictureShown: picture.right <= inner + 0.5 || (pre.scrollWidth > pre.clientWidth && style.overflowX === 'auto'),
          pageFits: document.documentElement.scrollWidth <= window.innerWidth,
        };
      });
      expect(drawn, `at ${width} px`).toEqual({ boxInColumn: true, pictureShown: true, pageFits: true });
    }
    expect(problems).toEqual([]);
    await done();
  });

  it.each(caseNames())('golden page %s: no serious or critical axe violation, light or dark', async (name) => {
    await checkPage(`golden/${name}.html`, null);
  });

  it.each(SITE_PAGES)('site page %s: no serious or critical axe violation, light or dark, and Mermaid drawn from the site itself', async (path) => {
    const name = path === 'index.html' ? 'index' : path.replace('/index.html', '');
    await checkPage(path, { name, keep: path === 'index.html' ? 'all' : 'some' });
  });
});
