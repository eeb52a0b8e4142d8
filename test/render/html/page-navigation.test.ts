// The page's own navigation (docs/projections.md, "The page"): a skip link first, a link back to
// the site's index only where there is one, and a table of contents from four sections on.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../../src/render/figures/mermaid-pin.js';
import { renderPage } from '../../../src/render/html/render-page.js';
import { ROOT } from '../../helpers/workspace.js';
import { byId, classes, elements, parsePage, textOf } from '../page-claims.js';
import { snapshotOf } from '../snapshot-of.js';

const CSS = readFileSync(join(ROOT, 'templates', 'page.css'), 'utf8');

function sections(n: number, nested = 0): string {
  const inner = Array.from({ length: nested }, (_, i) => `<section id="n${i}" v="1" title="Inner ${i}"><text id="nt${i}" v="1">x</text></section>`).join('');
  return Array.from({ length: n }, (_, i) => `<section id="s${i}" v="1" title="Part ${i}">${i === 0 ? inner : ''}<text id="t${i}" v="1">x</text></section>`).join('');
}

function body(html: string): Element {
  return elements(parsePage(html)).find((e) => e.el.tagName === 'body')!.el;
}

function links(el: Element): Array<[string, string]> {
  return elements(el)
    .filter((e) => e.el.tagName === 'a')
    .map((e) => [String(e.el.properties.href), textOf(e.el)]);
}

describe('the page navigation', () => {
  it('starts with a skip link to main, whose id no node id can take', () => {
    const html = renderPage(snapshotOf('<text id="t1" v="1">hello</text>'), { css: CSS });
    const first = body(html).children.find((c): c is Element => c.type === 'element')!;
    expect(first.tagName).toBe('a');
    expect(classes(first)).toEqual(['skip-link']);
    expect(first.properties.href).toBe('#page-main');
    expect(byId(parsePage(html), 'page-main')?.tagName).toBe('main');
  });

  it('links back to the index only when given one (the site), never on a standalone page', () => {
    const standalone = renderPage(snapshotOf('<text id="t1" v="1">hello</text>'), { css: CSS });
    expect(links(body(standalone)).filter(([href]) => href.endsWith('index.html'))).toEqual([]);
    const site = renderPage(snapshotOf('<text id="t1" v="1">hello</text>'), { css: CSS, index: '../index.html' });
    const nav = elements(parsePage(site)).find((e) => e.el.tagName === 'nav' && classes(e.el).includes('site-nav'))!.el;
    expect(links(nav)).toEqual([['../index.html', '← All canvases']]);
  });

  it('has no table of contents below four sections, and one of every section from four on', () => {
    expect(byId(parsePage(renderPage(snapshotOf(sections(3)), { css: CSS })), 'page-contents')).toBeUndefined();
    const toc = byId(parsePage(renderPage(snapshotOf(sections(3, 1)), { css: CSS })), 'page-contents')!;
    expect(toc.tagName).toBe('nav');
    expect(toc.properties.ariaLabel).toBe('Contents');
    expect(links(toc)).toEqual([
      ['#s0', 'Part 0'],
      ['#n0', 'Inner 0'],
      ['#s1', 'Part 1'],
      ['#s2', 'Part 2'],
    ]);
    // The nested section is listed under its parent.
    const inner = elements(toc).find((e) => e.el.tagName === 'a' && e.el.properties.href === '#n0')!;
    expect(inner.ancestors.filter((a) => a.tagName === 'ol')).toHaveLength(2);
  });

  it('loads the site’s own Mermaid copy with the same integrity hash when given one, admitted by self', () => {
    const html = renderPage(snapshotOf('<figure id="m1" v="1" kind="mermaid">graph TD\n  A --&gt; B</figure>'), {
      css: CSS,
      mermaid: '../_vendor/mermaid-12.3.0/',
    });
    const all = elements(parsePage(html)).map((e) => e.el);
    const [entry, start] = all.filter((el) => el.tagName === 'script');
    expect(entry!.properties).toMatchObject({ src: '../_vendor/mermaid-12.3.0/dist/mermaid.esm.min.mjs', integrity: MERMAID_PIN.integrity });
    expect(textOf(start!)).toBe(MERMAID_PIN.startModule('../_vendor/mermaid-12.3.0/dist/mermaid.esm.min.mjs'));
    const csp = String(all.find((el) => el.properties.httpEquiv?.toString() === 'Content-Security-Policy')!.properties.content);
    const hash = `'sha256-${createHash('sha256').update(textOf(start!), 'utf8').digest('base64')}'`;
    expect(csp).toContain(`script-src 'self' ${hash};`);
    expect(csp).not.toContain('cdn.jsdelivr.net');
  });
});
