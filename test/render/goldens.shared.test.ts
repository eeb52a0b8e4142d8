// The golden runner (docs/projections.md, "Goldens"): every case under snapshots/ is built,
// rendered three ways, and compared byte for byte. A missing golden is written; UPDATE=1 rewrites
// them all. Golden diffs are reviewed like code.
//
// One golden page keeps the stylesheet inline (WHOLE); every other golden page holds the page
// with the stylesheet's text replaced by CSS_MARKER, and its hash in the Content-Security-Policy
// by HASH_MARKER, so a change to templates/page.css shows in one golden diff, not in every
// case's. Each page is compared after those replacements, made only where the page inlines
// exactly templates/page.css and its policy names exactly that text's hash.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { ROOT } from '../helpers/workspace.js';
import { buildCase, caseNames, SNAPSHOTS } from './golden-cases.js';
import { pageOf } from './page-of.js';

const UPDATE = process.env.UPDATE === '1';

/** The case whose golden page keeps the stylesheet whole. */
const WHOLE = 'every-node-type';

/** The stylesheet as shipped. */
const CSS = readFileSync(join(ROOT, 'templates', 'page.css'), 'utf8');

/** The stylesheet's hash as the page's policy names it. */
const HASH = `sha256-${createHash('sha256').update(CSS, 'utf8').digest('base64')}`;

/** What the other golden pages hold inside `<style>` instead of the stylesheet. */
const CSS_MARKER = `/* templates/page.css, byte for byte: inline in snapshots/${WHOLE}/page.html */\n`;

/** What the other golden pages' policies hold instead of the stylesheet's hash. */
const HASH_MARKER = 'sha256-of-templates/page.css';

/** The text of every `<style>` element of a page. */
function styles(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
}

/** The sources of a page's `style-src`: `'unsafe-inline'` on a page with a Mermaid figure. */
function styleSources(html: string): string | undefined {
  return html.replaceAll('&#x27;', "'").match(/style-src ([^;]*);/)?.[1];
}

/** Whether a page has a Mermaid figure (its policy then admits inline styles, not a hash). */
function hasMermaid(html: string): boolean {
  return /<pre class="mermaid"[ >]/.test(html);
}

/** The page as its case's golden holds it: whole for WHOLE, else with the stylesheet marked. */
function goldenPage(name: string, html: string): string {
  expect(styles(html), `${name}: the page inlines templates/page.css, once`).toEqual([CSS]);
  expect(styleSources(html), `${name}: the policy admits that stylesheet`).toBe(hasMermaid(html) ? "'unsafe-inline'" : `'${HASH}'`);
  if (name === WHOLE) return html;
  return html.replace(`<style>${CSS}</style>`, () => `<style>${CSS_MARKER}</style>`).replace(`&#x27;${HASH}&#x27;`, () => `&#x27;${HASH_MARKER}&#x27;`);
}

function compare(name: string, file: string, actual: string): void {
  const path = join(SNAPSHOTS, name, file);
  if (UPDATE || !existsSync(path)) {
    writeFileSync(path, actual);
    return;
  }
  expect(actual, `${name}/${file} differs from its golden; review the diff, then UPDATE=1 if it is right`).toBe(readFileSync(path, 'utf8'));
}

describe('goldens', () => {
  it('has the cases the projections promise to cover', () => {
    expect(caseNames()).toEqual(expect.arrayContaining(['crossings', 'empty', 'every-node-type', 'frozen', 'hostile-text', 'large', 'options-decided']));
  });

  it('keeps one golden page whole, and every other with the markers where the stylesheet and its hash were', () => {
    for (const name of caseNames()) {
      const golden = readFileSync(join(SNAPSHOTS, name, 'page.html'), 'utf8');
      expect(styles(golden), name).toEqual([name === WHOLE ? CSS : CSS_MARKER]);
      const hash = name === WHOLE ? HASH : HASH_MARKER;
      expect(styleSources(golden), name).toBe(hasMermaid(golden) ? "'unsafe-inline'" : `'${hash}'`);
    }
  });

  for (const name of caseNames()) {
    it(`${name}: page, comment and prompt match their goldens`, async () => {
      const snapshot = await buildCase(name);
      compare(name, 'page.html', goldenPage(name, await pageOf(snapshot)));
      compare(name, 'comment.md', renderComment(snapshot));
      compare(name, 'prompt.txt', renderPrompt(snapshot));
    });
  }
});
