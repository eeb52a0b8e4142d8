// canvas serve in real Chromium (docs/serve.md): edits through the page's controls, pages kept live
// by the event stream, the conflict view, proposals, the guard as a browser meets it, keyboard use,
// axe-core, hostile content, writers racing, and screenshots (test-artifacts/serve/, gitignored).
// The server runs in this process on a free loopback port; nothing leaves the machine.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { nodeHistory } from '../../src/store/read/node-history.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { type RunningServer, serveCanvas } from '../../src/serve/serve-canvas.js';
import { buildCaseIn } from '../render/golden-cases.js';
import { AUTHOR, repoState, ROOT, runCli } from '../helpers/workspace.js';
import { chromiumAndServed } from './browser-fixture.js';
import { revisionOf, type Served, TOKEN } from './serve-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ready = existsSync(CHROMIUM);
const run = ready || process.env.CI === 'true';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'serve');

let browser: Browser;
let s: Served;
/** The contexts of the test running, closed when it ends: a page left open stays live and redraws at every later test's edits. */
const contexts: BrowserContext[] = [];

/** A browser context in which anything not this server is refused: nothing leaves the machine. */
async function context(server: RunningServer = s.server, options: { bypassCSP?: boolean; width?: number } = {}): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, bypassCSP: options.bypassCSP ?? false });
  contexts.push(c);
  await c.route('**/*', (route) => (route.request().url().startsWith(server.origin) ? route.continue() : route.abort('internetdisconnected')));
  return c;
}

/**
 * Open a canvas page as a user opens the URL canvas serve printed, the token in it (exchanged for
 * the cookie and the page redirected to the same path without it), and wait until it says it is live.
 */
async function openPage(c: BrowserContext, ledger = 'demo', server: RunningServer = s.server): Promise<Page> {
  const p = await c.newPage();
  await p.goto(`${server.origin}/${ledger}/?token=${TOKEN}`);
  expect(p.url()).toBe(`${server.origin}/${ledger}/`);
  await p.waitForSelector('#live-status[data-state="live"]');
  return p;
}

/** Edit one text node through the page: the Edit button, the form, the reason, Save. */
async function editText(p: Page, id: string, text: string, why: string): Promise<void> {
  await p.locator(`#${id} > .live-controls button`, { hasText: 'Edit' }).click();
  await p.locator('#live-editor textarea:not(.live-why)').fill(text);
  await p.locator('#live-editor .live-why').fill(why);
  await p.locator('#live-editor .live-submit').click();
}

async function shoot(p: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await p.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** axe-core's serious and critical violations on a page (run with the page's CSP bypassed). */
async function axeViolations(p: Page): Promise<Array<{ id: string; impact: string; nodes: number; targets: string }>> {
  await p.addScriptTag({ content: axe.source });
  const found = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    // The whole page as served, with everything the server adds, node-id tags included.
    const r = await axe.run(document);
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: JSON.stringify(v.nodes.map((n) => (n as { target: unknown; failureSummary: string }).target)) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.runIf(run)('canvas serve in Chromium', () => {
  chromiumAndServed({ executablePath: CHROMIUM }, contexts, (b, served) => {
    browser = b;
    s = served;
  });

  it('edits a node with a reason: applied, shown, and canvas history has it authored as the person', async () => {
    const c = await context();
    const p = await openPage(c);
    await shoot(p, 'page-1280');
    await p.locator(`#${s.ids.text} > .live-controls button`, { hasText: 'Edit' }).click();
    await p.locator('#live-editor textarea:not(.live-why)').fill('Serve the built pages, edited in the tab.');
    await p.locator('#live-editor .live-why').fill('edited in the browser to check the path');
    await shoot(p, 'edit-form-1280');
    await p.setViewportSize({ width: 390, height: 844 });
    await shoot(p, 'edit-form-390');
    await p.setViewportSize({ width: 1280, height: 900 });
    await p.locator('#live-editor .live-submit').click();
    await p.waitForSelector('#live-editor .live-outcome.applied');
    await p.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('edited in the tab'), s.ids.text);
    const h = await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.text });
    expect(h.at(-1)).toMatchObject({ op: 'replace', author: AUTHOR, reason: 'edited in the browser to check the path' });
    expect(await p.locator('code.revision').textContent()).toBe(await revisionOf(s.ws));
    await p.locator('#live-editor button.live-close').click();
    await p.setViewportSize({ width: 390, height: 844 });
    await shoot(p, 'page-390');
    await p.close();
  });

  it('two pages on one canvas: an edit in one appears in the other, and a CLI edit in both', async () => {
    const c = await context();
    const a = await openPage(c);
    const b = await openPage(c);
    await b.evaluate(() => window.scrollTo(0, 120));
    await editText(a, s.ids.text, 'Written in page A.', 'page A decides');
    await b.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Written in page A.'), s.ids.text, { timeout: 5000 });
    // The other page says what changed, by whom and why.
    await b.waitForSelector('#live-news:not([hidden])');
    expect(await b.locator('#live-news').textContent()).toContain('page A decides');
    const cli = await runCli(s.ws, ['replace', 'demo', s.ids.text, '--text', 'Written from the CLI.', '--base', await revisionOf(s.ws), '--why', 'the CLI has its say']);
    expect(cli.code, cli.stderr).toBe(0);
    for (const p of [a, b]) await p.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Written from the CLI.'), s.ids.text, { timeout: 5000 });
    const now = await revisionOf(s.ws);
    for (const p of [a, b]) expect(await p.locator('code.revision').textContent()).toBe(now);
    await a.close();
    await b.close();
  });

  it('a stale edit shows the conflict with the diff and writes nothing; a reason with a line break is refused in the page', async () => {
    const c = await context();
    const p = await openPage(c);
    await p.locator(`#${s.ids.text} > .live-controls button`, { hasText: 'Edit' }).click();
    await p.locator('#live-editor textarea:not(.live-why)').fill('My stale version.');
    const base = await revisionOf(s.ws);
    const other = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.text, payload: { text: 'Changed while you typed.' }, base, why: 'an agent got there first', author: 'agent | step:s3' });
    expect(other.outcome).toBe('applied');
    await p.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Changed while you typed.'), s.ids.text);
    // The edit in progress is kept, and told the canvas moved: the notice comes once the page
    // also has what changed since its revision, which may be after the redraw that shows the text.
    expect(await p.locator('#live-editor textarea:not(.live-why)').inputValue()).toBe('My stale version.');
    await p.waitForFunction(() => document.querySelector('#live-editor .live-notice')?.textContent?.includes('moved'), undefined, { timeout: 5000 });
    expect(await p.locator('#live-editor textarea:not(.live-why)').inputValue()).toBe('My stale version.');
    const before = repoState(s.ws);
    await p.locator('#live-editor .live-why').fill('two\nlines');
    await p.locator('#live-editor .live-submit').click();
    expect(await p.locator('#live-why-problem').textContent()).toContain('one line');
    await p.locator('#live-editor .live-why').fill('my version is better');
    await p.locator('#live-editor .live-submit').click();
    await p.waitForSelector('#live-editor .live-outcome.conflict');
    const view = await p.locator('#live-editor .live-outcome').textContent();
    expect(view).toContain('an agent got there first');
    expect(view).toContain('Changed while you typed.');
    expect(repoState(s.ws)).toEqual(before);
    await shoot(p, 'conflict-1280');
    await p.setViewportSize({ width: 390, height: 844 });
    await shoot(p, 'conflict-390');
    await p.setViewportSize({ width: 1280, height: 900 });
    // Take the new version and decide again: the form now starts from it, against the new base.
    await p.locator('#live-editor button.live-retry').click();
    await p.waitForFunction(() => (document.querySelector('#live-editor textarea:not(.live-why)') as HTMLTextAreaElement | null)?.value === 'Changed while you typed.');
    expect(await p.locator('#live-editor .live-base').textContent()).toContain((await revisionOf(s.ws)).slice(0, 7));
    await p.close();
  });

  it('never shows an old revision without saying so: the line says when it is not live, and it catches up', async () => {
    const own = await serveCanvas(s.ws, { port: 0, author: AUTHOR, token: TOKEN });
    const port = own.port;
    let again: RunningServer | null = null;
    try {
      const c = await context(own);
      const p = await openPage(c, 'demo', own);
      await own.close();
      await p.waitForSelector('#live-status[data-state="stale"]');
      expect(await p.locator('#live-status').textContent()).toMatch(/^Not live: this page shows revision [0-9a-f]{7}, which may be old\./);
      const base = await revisionOf(s.ws);
      const w = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.text, payload: { text: 'Written while the page was cut off.' }, base, why: 'made while the server was down', author: AUTHOR });
      if (w.outcome !== 'applied') throw new Error(JSON.stringify(w));
      again = await serveCanvas(s.ws, { port, author: AUTHOR, token: TOKEN });
      await p.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Written while the page was cut off.'), s.ids.text, { timeout: 15_000 });
      await p.waitForSelector('#live-status[data-state="live"]');
      expect(await p.locator('code.revision').textContent()).toBe(w.revision);
    } finally {
      await again?.close();
    }
  });

  it("a commenter's edit becomes a proposal, which an editor's page approves", async () => {
    const cam = await serveCanvas(s.ws, { port: 0, author: 'cam', token: TOKEN });
    try {
      const cc = await context(cam);
      const cp = await openPage(cc, 'demo', cam);
      await editText(cp, s.ids.text, 'Cam suggests this.', 'clearer for a reader');
      await cp.waitForSelector('#live-editor .live-outcome.proposed');
      expect((await readCanvas(s.ws, { ledger: 'demo' })).xml).not.toContain('Cam suggests this.');
      const c = await context();
      const p = await openPage(c);
      await p.waitForSelector('#live-proposals');
      await p.locator('#live-proposals .live-why').fill('agreed, clearer');
      await p.locator('#live-proposals button', { hasText: 'Approve' }).click();
      // Whatever the outcome, it is said: a refusal is reported with its text, not as a timeout.
      const said = p.locator('#live-proposals .live-outcome');
      await said.waitFor();
      expect(`${await said.getAttribute('class')}: ${await said.textContent()}`).toMatch(/^live-outcome applied: /);
      await p.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Cam suggests this.'), s.ids.text);
      // The page redrew its proposals (none is pending now) and still says what became of this one.
      await p.waitForFunction(() => document.querySelector('#live-proposals h2')?.textContent === 'Pending proposals (0)');
      expect(await said.textContent()).toMatch(/^Applied: /);
      await said.scrollIntoViewIfNeeded();
      await shoot(p, 'decided-1280');
      await p.setViewportSize({ width: 390, height: 844 });
      await said.scrollIntoViewIfNeeded();
      await shoot(p, 'decided-390');
      await p.setViewportSize({ width: 1280, height: 900 });
      // The commenter's page follows too.
      await cp.waitForFunction((id) => document.getElementById(id)?.textContent?.includes('Cam suggests this.'), s.ids.text);
      expect((await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.text })).at(-1)).toMatchObject({ author: AUTHOR, proposedBy: 'cam', reason: 'agreed, clearer' });
    } finally {
      await cam.close();
    }
  });

  it('previews a figure as the page will draw it, and says why a source cannot be drawn', async () => {
    const c = await context();
    const p = await openPage(c);
    await p.locator(`#${s.ids.text} > .live-controls select`).selectOption('figure');
    await p.locator(`#${s.ids.text} > .live-controls button`, { hasText: `Insert after ${s.ids.text}` }).click();
    await p.locator('#live-editor textarea:not(.live-why)').fill('diagram 1\nnode a "Watch"\nnode b "Page"\na -> b "tells"');
    await p.waitForSelector('#live-editor .live-preview svg');
    expect(await p.locator('#live-editor .live-preview svg').textContent()).toContain('Watch');
    await p.locator('#live-editor textarea:not(.live-why)').fill('diagram 1\nnode a "unclosed');
    await p.waitForSelector('#live-editor .live-preview .live-problem');
    expect(await p.locator('#live-editor .live-preview').textContent()).toContain('DIAGRAM_SYNTAX');
  });

  it('no token, a wrong Host, or a cross-origin POST: refused, nothing written', async () => {
    const before = repoState(s.ws);
    const bare = await browser.newContext();
    contexts.push(bare);
    const p = await bare.newPage();
    expect((await p.goto(`${s.server.origin}/demo/`))!.status()).toBe(403);
    expect((await p.goto(`http://localhost:${s.server.port}/?token=${TOKEN}`))!.status()).toBe(403);
    // A page of another site, in a browser that holds the cookie (set by the server's own page), tries both kinds of POST.
    const c = await context();
    await (await openPage(c)).close();
    await c.route('http://evil.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>evil</title><p>hi</p>' }));
    const evil = await c.newPage();
    await evil.goto('http://evil.test/');
    const base = await revisionOf(s.ws);
    const tries = await evil.evaluate(
      async ({ origin, base, id }) => {
        const body = JSON.stringify({ op: 'remove', id, base, why: 'from another site' });
        const out: string[] = [];
        for (const init of [
          { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body },
          { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body },
        ] as RequestInit[]) {
          try {
            const r = await fetch(`${origin}/demo/_write`, init);
            out.push(`status ${r.status} ${r.type}`);
          } catch (e) {
            out.push(`blocked ${String(e)}`);
          }
        }
        return out;
      },
      { origin: s.server.origin, base, id: s.ids.question },
    );
    // The JSON POST needs a preflight nobody answers; the simple one goes out without the cookie
    // (SameSite=Strict) and with the other site's Origin, when the browser sends it at all.
    expect(tries[0]).toMatch(/^blocked/);
    expect(tries[1]).toMatch(/^blocked|^status 0 opaque$/);
    expect(repoState(s.ws)).toEqual(before);
  });

  it('every control is reachable and usable by keyboard', async () => {
    const c = await context();
    const p = await openPage(c);
    const controls = await p.evaluate(() => {
      const all = [...document.querySelectorAll('.live-controls button, .live-controls select')];
      all.forEach((e, i) => {
        e.setAttribute('data-k', String(i));
      });
      return all.length;
    });
    expect(controls).toBeGreaterThan(10);
    const seen = new Set<string>();
    for (let i = 0; i < 200 && seen.size < controls; i += 1) {
      await p.keyboard.press('Tab');
      const k = await p.evaluate(() => document.activeElement?.getAttribute('data-k') ?? null);
      if (k !== null) seen.add(k);
    }
    expect(seen.size).toBe(controls);
    // Keyboard only: the Edit button, the text, the reason, Enter.
    await p.locator(`#${s.ids.question} > .live-controls button`, { hasText: 'Edit' }).focus();
    await p.keyboard.press('Enter');
    await p.waitForSelector('#live-editor textarea:focus');
    await p.keyboard.press('Control+A');
    await p.keyboard.type('Watch or poll? Watch, by keyboard.');
    while (!(await p.evaluate(() => document.activeElement?.classList.contains('live-why')))) await p.keyboard.press('Tab');
    await p.keyboard.type('typed without a mouse');
    await p.keyboard.press('Enter');
    await p.waitForSelector('#live-editor .live-outcome.applied');
    await p.keyboard.press('Escape');
    expect(await p.locator('#live-editor').count()).toBe(0);
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
    expect((await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.question })).at(-1)).toMatchObject({ reason: 'typed without a mouse' });
  });

  it('axe-core finds no serious or critical violation on the served page, with the editor open, and on the index', async () => {
    const c = await context(s.server, { bypassCSP: true });
    const p = await openPage(c);
    expect(await axeViolations(p)).toEqual([]);
    await p.locator(`#${s.ids.section} > .live-controls button`, { hasText: 'Edit' }).click();
    expect(await axeViolations(p)).toEqual([]);
    const index = await c.newPage();
    await index.goto(`${s.server.origin}/`);
    await index.waitForSelector('#live-status[data-state="live"]');
    expect(await axeViolations(index)).toEqual([]);
  });

  it('keeps hostile canvas content inert in the live page, as on the static one', async () => {
    const ledger = await buildCaseIn(s.ws, 'hostile-text');
    const c = await context();
    const p = await c.newPage();
    const dialogs: string[] = [];
    const problems: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    p.on('pageerror', (e) => problems.push(String(e)));
    await p.goto(`${s.server.origin}/${ledger}/?token=${TOKEN}`);
    await p.waitForSelector('#live-status[data-state="live"]');
    // Open every node's editor: the forms hold the hostile text as values, never as markup.
    const ids = await p.evaluate(() => [...document.querySelectorAll('main .node[id]')].map((n) => n.id));
    for (const id of ids) {
      await p.locator(`#${id} > .live-controls button`, { hasText: 'Edit' }).click();
      await p.waitForSelector('#live-editor');
    }
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    // Scripts: the server's own, and the pinned Mermaid module with its start-up (the case has a
    // Mermaid figure); none from the canvas.
    const scripts = await p.evaluate(() => [...document.scripts].map((x) => x.getAttribute('src') ?? x.textContent));
    expect(scripts).toEqual([MERMAID_PIN.url, MERMAID_PIN.init, '/_canvas/live.js']);
    expect(await p.locator('main img, main iframe, main object').count()).toBe(0);
    expect(await p.locator('main').textContent()).toContain("<script>alert('title')</script>");
  });

  it('one browser and four CLI writers at once: no edit lost, verify green (short; docs/serve.md)', async () => {
    const c = await context();
    const p = await openPage(c);
    const writer = async (w: number): Promise<string[]> => {
      const texts: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const text = `writer ${w} edit ${i}`;
        const base = await revisionOf(s.ws);
        const r = await runCli(s.ws, ['insert', 'demo', '--into', 'root', '--text', text, '--base', base, '--why', `writer ${w} adds ${i}`, '--author', `w${w}`]);
        if (r.code !== 0) throw new Error(r.stderr);
        texts.push(text);
      }
      return texts;
    };
    for (const w of [0, 1, 2, 3]) {
      const g = await grantRole(s.ws, { ledger: 'demo', who: `w${w}`, role: 'editor', why: `writer ${w} joins`, author: AUTHOR });
      expect(g.outcome).toBe('applied');
    }
    const browserEdits = (async () => {
      const texts: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const text = `browser edit ${i}`;
        for (;;) {
          await p.locator('#live-top button', { hasText: 'Insert at the top' }).click();
          await p.locator('#live-editor textarea:not(.live-why)').fill(text);
          await p.locator('#live-editor .live-why').fill(`the browser adds ${i}`);
          await p.locator('#live-editor .live-submit').click();
          const outcome = await p.waitForSelector('#live-editor .live-outcome');
          const applied = (await outcome.getAttribute('class'))?.includes('applied');
          await p.keyboard.press('Escape');
          if (applied) break;
        }
        texts.push(text);
      }
      return texts;
    })();
    const all = (await Promise.all([browserEdits, writer(0), writer(1), writer(2), writer(3)])).flat();
    const xml = (await readCanvas(s.ws, { ledger: 'demo' })).xml;
    for (const t of all) expect(xml, t).toContain(`>${t}<`);
    expect((await verifyWorkspace(s.ws)).violations).toEqual([]);
    const now = await revisionOf(s.ws);
    await p.waitForFunction((rev) => document.querySelector('code.revision')?.textContent === rev, now, { timeout: 5000 });
    for (const t of all) expect(await p.locator('main').textContent()).toContain(t);
  });
});
