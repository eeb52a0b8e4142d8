// Take the screenshots a person's view is judged by (docs/projections.md, "Looking at the pages"):
// the example workspace's pages, a canvas of 60 nodes (sections, tables, questions, lists,
// diagrams, a Mermaid sequence diagram of four participants, root-level nodes after sections, a
// crossing, a proposal) and the desk, built by `canvas build` and served by `canvas serve`, each
// at 1280 and 390 px, in headless Chromium. Run after `npm run build`:
//
//   node scripts/screenshots.js [OUT]      (default test-artifacts/screenshots; made anew)
//
// It prints one line per picture with what a reader would notice first: a page wider than the
// screen, or a drawing wider than its column that does not scroll in its own box. Mermaid is
// served from .vendor/mermaid (scripts/vendor-mermaid.sh) in place of the CDN; without it the
// Mermaid figures show their source. Nothing leaves the machine: every other request outside the
// site or the server is refused.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { makeExampleWorkspace } from './example-workspace.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CDN = 'https://cdn.jsdelivr.net/npm/mermaid@12.3.0/';
const VENDOR = join(root, '.vendor', 'mermaid', 'package');
const ORIGIN = 'https://canvas.test/';
const LEO = 'leo | by-hand';
const CAM = 'cam | by-hand';
const WIDTHS = [1280, 390];
/** The big canvas: its ledger id and how many nodes it holds. */
const BIG = 'sixty';
const NODES = 60;

const SEQUENCE =
  'sequenceDiagram\n' +
  '  participant Agent as Planning agent\n' +
  '  participant Store as Canvas store\n' +
  '  participant Git as Git repository\n' +
  '  participant Person as Person at the desk\n' +
  '  Agent->>Store: replace b7 --base 3f2a91c --why "the measurement changed, so the paragraph says what holds now"\n' +
  '  Store->>Git: one commit naming b7, Canvas-Base and Canvas-Previous trailers, refs moved in one transaction\n' +
  '  Git-->>Store: main and refs/canvas/sixty moved together\n' +
  '  Store-->>Agent: applied, with the diff of everything else that changed since its base\n' +
  '  Person->>Store: answer the open question from the desk, with a reason\n' +
  '  Store-->>Person: applied: the desk and every open tab update live';

/** The library, as built by `npm run build`. */
async function library() {
  const entry = join(root, 'dist', 'lib', 'index.js');
  if (!existsSync(entry)) throw new Error('dist/lib/index.js is missing: run npm run build first');
  return import(pathToFileURL(entry).href);
}

/**
 * Write the 60-node canvas through the library's verbs: six sections, each with a paragraph, a
 * three-column table, a question, a list, a diagram and a link, and a root-level paragraph after
 * each; then edits with reasons, a move out of a section (a crossing), the Mermaid sequence
 * diagram, and a commenter's proposal for the desk.
 */
async function writeBigCanvas(lib, ws) {
  const opened = await lib.openCanvas(ws, {
    ledger: BIG,
    problem: 'Pages read as forms, not as documents: the reasons crowd every node and a section hides where it ends.',
    expectedValue: 'A page reads as the blackboard it is: sections visibly hold their nodes, the reasons one click away.',
    why: 'the canvas the screenshots are judged by',
    author: LEO,
  });
  let base = opened.revision;
  const ok = (o) => {
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    base = o.revision;
    return o.node;
  };
  const insert = async (where, payload, why) => ok(await lib.insertNode(ws, { ledger: BIG, ...where, payload, base, why, author: LEO }));
  const replace = async (node, payload, why) => ok(await lib.replaceNode(ws, { ledger: BIG, node, payload, base, why, author: LEO }));
  let last = opened.nodes[1];
  const firsts = [];
  const questions = [];
  for (let s = 1; s <= 6; s += 1) {
    const sec = await insert({ after: last }, { xml: `<section title="Part ${s}: what was decided about the ${['proxy', 'pool', 'cache', 'queue', 'index', 'backup'][s - 1]}"/>` }, `part ${s} of the work`);
    let prev = await insert({ into: sec }, { text: `The first paragraph of part ${s}: what was decided, why it matters to the reader, and what would make us decide again.` }, 'the decision in words');
    firsts.push(prev);
    prev = await insert(
      { after: prev },
      {
        xml: '<table><row><cell>option</cell><cell>cost</cell><cell>risk</cell></row><row><cell>raise the proxy timeout</cell><cell>medium</cell><cell>low</cell></row><row><cell>grow the application pool</cell><cell>high</cell><cell>medium</cell></row></table>',
      },
      'the options weighed',
    );
    prev = await insert({ after: prev }, { question: `Is the measurement of part ${s} taken at peak load, or at the quiet hour?` }, 'nobody has checked this yet');
    questions.push(prev);
    prev = await insert({ after: prev }, { xml: '<list><item>measure at peak</item><item>compare both options on the same day</item><item>decide, and write down why</item></list>' }, 'the steps');
    prev = await insert(
      { after: prev },
      {
        xml: `<figure kind="diagram" caption="How a request of part ${s} flows">diagram 1\ndirection right\nnode a "client"\nnode b "proxy"\nnode c "application"\nnode d "database"\na -> b "request"\nb -> c "forward"\nc -> d "query"</figure>`,
      },
      'a picture of the path',
    );
    prev = await insert({ after: prev }, { xml: `<link href="https://example.org/part-${s}">the measurements of part ${s}</link>` }, 'where the figures are');
    prev = await insert({ after: prev }, { text: `A closing note inside part ${s}: what to measure again before the next release.` }, 'what is left');
    last = await insert({ after: sec }, { text: `A root-level paragraph after part ${s}: it belongs to no section, and the page must show that.` }, 'a note outside the section');
  }
  last = await insert(
    { after: last },
    { xml: `<figure kind="mermaid" caption="A write, from the agent to the desk">${SEQUENCE.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;')}</figure>` },
    'the sequence of one write, four participants',
  );
  last = await insert({ after: last }, { question: 'Should the desk group its questions by canvas once there are more than twenty?' }, 'asked while reading the desk');
  last = await insert({ after: last }, { xml: '<list ordered="true"><item>read the desk</item><item>answer what can be answered</item><item>decide every proposal</item></list>' }, 'the order of a morning');
  last = await insert({ after: last }, { text: 'The last paragraph of the page: nothing follows it.' }, 'an ending');
  // Edits with reasons, so the reasons panels hold more than one entry; a question answered.
  for (const [i, node] of firsts.entries()) await replace(node, { text: `The first paragraph of part ${i + 1}, reworded: what was decided, and what would make us decide again.` }, 'clearer after review');
  await replace(questions[0], { xml: '<question answered="true">Is the measurement of part 1 taken at peak load? Yes: at 18:00, the busiest hour.</question>' }, 'measured at peak on Monday');
  // A crossing: a paragraph moved out of its section to the root.
  ok(await lib.moveNode(ws, { ledger: BIG, node: firsts[5], after: last, base, why: 'this paragraph speaks for every part, not the last one', author: LEO }));
  // A commenter's proposal waits on the desk.
  ok(await lib.grantRole(ws, { ledger: BIG, who: 'cam', role: 'commenter', why: 'cam reviews the wording', author: LEO }));
  const proposed = await lib.replaceNode(ws, {
    ledger: BIG,
    node: firsts[1],
    payload: { text: 'Part 2 decided to grow the pool, because the proxy timeout only hid the queue.' },
    base,
    why: 'say the decision, not the process',
    author: CAM,
  });
  if (proposed.outcome !== 'proposed') throw new Error(JSON.stringify(proposed));
  const { canvas } = await lib.readCanvas(ws, { ledger: BIG });
  let count = 0;
  const walk = (nodes) => {
    for (const n of nodes) {
      count += 1;
      if (n.type === 'section') walk(n.children);
    }
  };
  walk(canvas.children);
  if (count !== NODES) throw new Error(`the big canvas has ${count} nodes, not ${NODES}`);
}

/** Answer requests for the built site at ORIGIN and for the CDN's Mermaid from .vendor; refuse the rest unless `pass` admits it. */
async function route(context, site, pass = () => false) {
  await context.route('**/*', async (r) => {
    const url = r.request().url();
    if (site && url.startsWith(ORIGIN)) {
      const file = join(site, decodeURIComponent(url.slice(ORIGIN.length).split(/[?#]/)[0]));
      if (!file.startsWith(site) || !existsSync(file)) return r.fulfill({ status: 404, body: '' });
      const type = extname(file) === '.html' ? 'text/html; charset=utf-8' : 'application/octet-stream';
      return r.fulfill({ status: 200, contentType: type, body: readFileSync(file) });
    }
    if (url.startsWith(CDN)) {
      const file = join(VENDOR, url.slice(CDN.length).split(/[?#]/)[0]);
      if (!file.startsWith(VENDOR) || !existsSync(file)) return r.fulfill({ status: 404, body: '' });
      return r.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: readFileSync(file) });
    }
    if (pass(url)) return r.continue();
    return r.abort('internetdisconnected');
  });
}

/** Wait for every Mermaid figure to be drawn (when the module could load), then say what a reader would notice. */
async function settle(page) {
  if (existsSync(VENDOR)) {
    const pres = page.locator('pre.mermaid');
    for (let i = 0; i < (await pres.count()); i += 1) await pres.nth(i).locator('svg').waitFor({ timeout: 30_000 });
  }
  return page.evaluate(() => {
    const notes = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) notes.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px wide on ${width})`);
    const column = document.querySelector('main') ?? document.body;
    const right = column.getBoundingClientRect().right;
    for (const svg of document.querySelectorAll('pre.mermaid svg, .drawing svg')) {
      const box = svg.parentElement;
      const scrolls = box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== 'visible';
      if (box.getBoundingClientRect().right > right + 1) notes.push(`a drawing's box (${box.closest('[id]')?.id}) reaches past the column`);
      else if (svg.getBoundingClientRect().width > box.clientWidth + 1 && !scrolls) notes.push(`a drawing (${box.closest('[id]')?.id}) is wider than its box, which does not scroll`);
    }
    return notes;
  });
}

async function shoot(page, out, name, width) {
  await page.setViewportSize({ width, height: 900 });
  const notes = await settle(page);
  const path = join(out, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`${path}${notes.length > 0 ? `: ${notes.join('; ')}` : ''}`);
}

/** Start `canvas serve` on a free port; resolve with its URL (the token in it) and a way to stop it. */
function serve(ws) {
  const child = spawn(process.execPath, [join(root, 'bin', 'canvas.js'), 'serve', '--workspace', ws, '--port', '0', '--author', LEO, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveServe, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`canvas serve exited ${code} before it printed its URL`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const { url, origin } = JSON.parse(line);
      resolveServe({
        url,
        origin,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function main() {
  const out = resolve(process.argv[2] ?? join(root, 'test-artifacts', 'screenshots'));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  if (!existsSync(VENDOR)) console.log('note: no .vendor/mermaid (scripts/vendor-mermaid.sh): the Mermaid figures show their source');
  const scratch = mkdtempSync(join(tmpdir(), 'canvas-screenshots-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  let server = null;
  try {
    const ws = join(scratch, 'ws');
    // Fixed dates, as the example workspace has: the same pictures on every run.
    Object.assign(process.env, { GIT_AUTHOR_DATE: '2026-11-02T09:00:00Z', GIT_COMMITTER_DATE: '2026-11-02T09:00:00Z' });
    await makeExampleWorkspace(ws);
    const lib = await library();
    await writeBigCanvas(lib, lib.resolveWorkspace({ workspace: ws }));
    const site = join(scratch, 'site');
    execFileSync(process.execPath, [join(root, 'bin', 'canvas.js'), 'build', '--workspace', ws, '--out', site], { stdio: ['ignore', 'ignore', 'inherit'] });

    const built = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await route(built, site);
    const page = await built.newPage();
    const pages = [['index', 'index.html'], ...['store-substrate', 'projections', 'node-identity', 'concurrency', BIG].map((l) => [l, `${l}/index.html`])];
    for (const [name, path] of pages) {
      await page.goto(`${ORIGIN}${path}`, { waitUntil: 'load' });
      for (const width of WIDTHS) await shoot(page, out, `built-${name}`, width);
    }
    // Its figures, tables and desk close up: what the full pages show too small to judge.
    await page.goto(`${ORIGIN}${BIG}/index.html`, { waitUntil: 'load' });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await settle(page);
      for (const [name, selector] of [
        ['sequence', 'figure.figure-mermaid'],
        ['diagram', 'figure.figure-diagram'],
        ['table', 'div.table'],
      ]) {
        const path = join(out, `built-${BIG}-${name}-${width}.png`);
        await page.locator(selector).first().screenshot({ path });
        console.log(path);
      }
      // Where a section ends and a root-level node follows it.
      const end = await page
        .locator('main section.section + div.node')
        .first()
        .evaluate((el) => {
          const after = el.getBoundingClientRect();
          return { y: after.top + window.scrollY - 250, height: after.height + 290 };
        });
      const path = join(out, `built-${BIG}-section-end-${width}.png`);
      await page.screenshot({ path, fullPage: true, clip: { x: 0, y: Math.max(0, end.y), width, height: end.height } });
      console.log(path);
    }
    // One node's reasons open, as a reader opens them (a click on its id): the panel lies over what
    // follows, inside the column, and the page does not move.
    await page.goto(`${ORIGIN}${BIG}/index.html`, { waitUntil: 'load' });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const why = page.locator('main section.section div.node.text details.why').first();
      await why.locator('summary').click();
      const path = join(out, `built-${BIG}-reasons-open-${width}.png`);
      const box = await why.evaluate((d) => {
        const node = d.closest('[id]').getBoundingClientRect();
        return { y: node.top + window.scrollY - 40, height: node.height + 260 };
      });
      await page.screenshot({ path, fullPage: true, clip: { x: 0, y: Math.max(0, box.y), width, height: box.height } });
      console.log(`${path}${(await settle(page)).map((n) => `: ${n}`).join('')}`);
      await why.locator('summary').click();
    }
    await built.close();

    server = await serve(ws);
    const served = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const origin = server.origin;
    await route(served, null, (url) => url.startsWith(origin));
    const tab = await served.newPage();
    await tab.goto(server.url);
    await tab.waitForSelector('#live-status[data-state="live"]');
    for (const width of WIDTHS) await shoot(tab, out, 'served-desk', width);
    await tab.locator('#desk-questions button', { hasText: 'Answer' }).first().click();
    for (const width of WIDTHS) await shoot(tab, out, 'served-desk-answering', width);
    await tab.goto(`${origin}/${BIG}/`);
    await tab.waitForSelector('#live-status[data-state="live"]');
    for (const width of WIDTHS) await shoot(tab, out, `served-${BIG}`, width);
    await served.close();
  } finally {
    await server?.stop();
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
