// The served tab as a person meets it first (docs/serve.md; docs/site.md, "The desk"), in real
// Chromium: every served page (the index with its desk, a canvas page) runs its scripts and styles
// with no Content-Security-Policy violation, reported by the page's own `securitypolicyviolation`
// events or by Chromium's console; the index's search and sort show, as on the built index; the
// desk lists what waits, and a person answers a question and approves a proposal from it, seen
// live in a second tab; screenshots of the desk at 1280 and 390 px go to test-artifacts/serve/.
// The server runs in this process on a free loopback port.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeHistory, readCanvas, replaceNode } from '../../src/store/index.js';
import { AUTHOR, ROOT } from '../helpers/workspace.js';
import { chromiumAndServed } from './browser-fixture.js';
import { revisionOf, type Served, TOKEN } from './serve-fixture.js';

const ARTIFACTS = join(ROOT, 'test-artifacts', 'serve');
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
  chromiumAndServed({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }, contexts, (b, served) => {
    browser = b;
    s = served;
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

  it('answers a question and approves a proposal from the desk, through the store, and a second tab sees both live', async () => {
    const { c, violations } = await context();
    const proposed = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.text, payload: { text: 'Serve the built pages, live.' }, base: await revisionOf(s.ws), why: 'say what the tab does', author: 'cam' });
    expect(proposed.outcome).toBe('proposed');
    const proposal = (proposed as { proposalId: string }).proposalId;
    const a = await open(c, '/');
    const b = await open(c, '/');
    await a.waitForSelector(`#desk-proposals li[data-proposal="${proposal}"]`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await a.screenshot({ path: join(ARTIFACTS, 'desk-1280.png'), fullPage: true });
    await a.setViewportSize({ width: 390, height: 844 });
    await a.screenshot({ path: join(ARTIFACTS, 'desk-390.png'), fullPage: true });
    await a.setViewportSize({ width: 1280, height: 900 });
    // Answer: the question kept a question, marked answered, with the answer as its text.
    await a.locator(`#desk-questions li[data-node="${s.ids.question}"] .desk-controls button`, { hasText: 'Answer' }).click();
    await a.locator('#desk-editor textarea:not(.live-why)').fill('Watch: one watcher, events to every page.');
    await a.locator('#desk-editor .live-why').fill('decided in the desk');
    await a.screenshot({ path: join(ARTIFACTS, 'desk-answer-1280.png') });
    await a.locator('#desk-editor .live-submit').click();
    await a.waitForSelector('#desk-editor .live-outcome.applied');
    for (const p of [a, b]) await p.waitForFunction((id) => !document.querySelector(`#desk-questions li[data-node="${id}"]`), s.ids.question, { timeout: 10_000 });
    const tree = (await readCanvas(s.ws, { ledger: 'demo' })).canvas;
    const section = tree.children.find((n) => n.id === s.ids.section) as { children: Array<{ id: string }> };
    expect(section.children.find((n) => n.id === s.ids.question)).toMatchObject({ type: 'question', text: 'Watch: one watcher, events to every page.', answered: true });
    expect((await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.question })).at(-1)).toMatchObject({ op: 'replace', author: AUTHOR, reason: 'decided in the desk' });
    // An applied answer leaves the outcome in the panel and no form (so no Cancel to wait for):
    // the Approve below opens its own panel in place of this one.
    expect(await a.locator('#desk-editor form').count()).toBe(0);
    // Approve: the proposal replayed by the store; it leaves both desks.
    await a.locator(`#desk-proposals li[data-proposal="${proposal}"] .desk-controls button`, { hasText: 'Approve' }).click();
    await a.locator('#desk-editor .live-why').fill('the tab does say so');
    await a.locator('#desk-editor .live-submit').click();
    await a.waitForSelector('#desk-editor .live-outcome.applied');
    for (const p of [a, b]) await p.waitForFunction((id) => !document.querySelector(`#desk-proposals li[data-proposal="${id}"]`), proposal, { timeout: 10_000 });
    expect((await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.text })).at(-1)).toMatchObject({ op: 'replace', author: AUTHOR, reason: 'the tab does say so', proposedBy: 'cam' });
    expect(await b.locator('#desk-summary').textContent()).toBe('Nothing waits for you: no open question, no proposal.');
    // The index's search and order came back with the swapped list.
    expect(await b.locator('#index-tools').isVisible()).toBe(true);
    expect(violations).toEqual([]);
  });

  it('an answer decided against a revision whose question moved since is a conflict, nothing written', async () => {
    const { c } = await context();
    const q = await (async () => {
      const { insertNode } = await import('../../src/store/index.js');
      const r = await insertNode(s.ws, { ledger: 'demo', into: 'root', payload: { question: 'Which port?' }, base: await revisionOf(s.ws), why: 'open', author: AUTHOR });
      return (r as { node: string }).node;
    })();
    const p = await open(c, '/');
    await p.locator(`#desk-questions li[data-node="${q}"] .desk-controls button`, { hasText: 'Answer' }).click();
    // An agent answers first.
    const agent = await replaceNode(s.ws, { ledger: 'demo', node: q, payload: { question: 'Which port?', answered: true }, base: await revisionOf(s.ws), why: 'port 4173', author: 'agent' });
    expect(agent.outcome).toBe('applied');
    const before = await revisionOf(s.ws);
    await p.locator('#desk-editor textarea:not(.live-why)').fill('Port 8080.');
    await p.locator('#desk-editor .live-why').fill('my answer');
    await p.locator('#desk-editor .live-submit').click();
    await p.waitForSelector('#desk-editor .live-outcome.conflict');
    expect(await revisionOf(s.ws)).toBe(before);
  });
});
