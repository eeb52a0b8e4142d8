import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import type { CanvasNode } from '../../../src/model/types.js';
import { MERMAID_PIN } from '../../../src/render/figures/mermaid-pin.js';
import { drawFigures } from '../../../src/render/figures/draw-figures.js';
import { renderPage } from '../../../src/render/html/render-page.js';
import { pageOf } from '../page-of.js';
import { ROOT } from '../../helpers/workspace.js';
import { byId, classes, elements, parsePage, textOf } from '../page-claims.js';
import { REV, snapshotOf } from '../snapshot-of.js';

const CSS = readFileSync(join(ROOT, 'templates', 'page.css'), 'utf8');

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

async function page(nodes: string, extra = {}) {
  const html = await pageOf(snapshotOf(nodes, extra));
  const tree = parsePage(html);
  const all = elements(tree).map((e) => e.el);
  const csp = all.find((el) => el.tagName === 'meta' && el.properties.httpEquiv?.toString() === 'Content-Security-Policy');
  return { html, tree, all, csp: String(csp?.properties.content ?? '') };
}

const MERMAID = '<figure id="m1" v="1" kind="mermaid">graph TD\n  A["&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"] --&gt; B</figure>';

describe('renderPage', () => {
  it('is one standalone page: the stylesheet inlined from templates/page.css, nothing external', async () => {
    const { all } = await page('<text id="t1" v="1">hello</text>');
    const styles = all.filter((el) => el.tagName === 'style');
    expect(styles).toHaveLength(1);
    expect(textOf(styles[0]!)).toBe(CSS);
    expect(all.filter((el) => el.tagName === 'link' || el.tagName === 'img' || el.tagName === 'script' || el.tagName === 'iframe')).toEqual([]);
    expect(CSS).not.toMatch(/url\(|@import|@font-face/);
  });

  it('has a CSP that allows only the stylesheet, by its hash, and no script', async () => {
    const { csp } = await page('<text id="t1" v="1">hello</text>');
    expect(csp).toBe(`default-src 'none'; style-src ${sha256(CSS)}; base-uri 'none'; form-action 'none'`);
  });

  it("loads a live page's script and stylesheet from its own origin; its CSP admits those and the pinned Mermaid module an update may need", async () => {
    const snapshot = snapshotOf('<text id="t1" v="1">hello</text>');
    const live = { script: '/_canvas/live.js', stylesheet: '/_canvas/live.css' };
    const html = renderPage(snapshot, { css: CSS, live });
    const all = elements(parsePage(html)).map((e) => e.el);
    expect(all.filter((el) => el.tagName === 'script').map((el) => el.properties.src)).toEqual(['/_canvas/live.js']);
    expect(all.filter((el) => el.tagName === 'link').map((el) => el.properties.href)).toEqual(['/_canvas/live.css']);
    const csp = String(all.find((el) => el.tagName === 'meta' && el.properties.httpEquiv?.toString() === 'Content-Security-Policy')?.properties.content);
    expect(csp).toBe(`default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self' ${MERMAID_PIN.url} ${MERMAID_PIN.chunks}; connect-src 'self'; base-uri 'none'; form-action 'none'`);
    expect(renderPage(snapshot, { css: CSS })).not.toContain('_canvas');
  });

  it('reads on a phone, in dark mode and on paper', async () => {
    const { all } = await page('<text id="t1" v="1">hello</text>');
    const viewport = all.find((el) => el.tagName === 'meta' && el.properties.name === 'viewport');
    expect(viewport?.properties.content).toBe('width=device-width, initial-scale=1');
    expect(CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(CSS).toContain('@media print');
  });

  it('loads the pinned Mermaid module only on a page with a Mermaid figure, and admits it in the CSP', async () => {
    const { all, csp } = await page(MERMAID);
    const scripts = all.filter((el) => el.tagName === 'script');
    const external = scripts.filter((el) => el.properties.src !== undefined);
    expect(external).toHaveLength(1);
    expect(external[0]!.properties).toMatchObject({
      type: 'module',
      src: MERMAID_PIN.url,
      integrity: MERMAID_PIN.integrity,
      crossOrigin: 'anonymous',
    });
    expect(MERMAID_PIN.url).toBe('https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.esm.min.mjs');
    expect(MERMAID_PIN.integrity).toBe('sha384-m/kS3TjSHDQS5Lf2oK4IERmXlK2HYeKOc6Ur2tuWQqUM1Hv74appp6dbTOsUGlHr');
    const inline = scripts.filter((el) => el.properties.src === undefined);
    expect(inline).toHaveLength(1);
    expect(textOf(inline[0]!)).toBe(MERMAID_PIN.init);
    expect(MERMAID_PIN.init).toContain("securityLevel: 'strict'");
    expect(csp).toBe(`default-src 'none'; style-src 'unsafe-inline'; script-src ${sha256(MERMAID_PIN.init)} ${MERMAID_PIN.url} ${MERMAID_PIN.chunks}; base-uri 'none'; form-action 'none'`);
    const pre = all.find((el) => el.tagName === 'pre');
    expect(classes(pre!)).toEqual(['mermaid']);
    expect(textOf(pre!)).toBe('graph TD\n  A["</pre><script>alert(1)</script>"] --> B');
  });

  it('keeps a Mermaid source that tries to close its pre as text', async () => {
    const { html } = await page(MERMAID);
    expect(html).toContain('A["&#x3C;/pre>&#x3C;script>alert(1)&#x3C;/script>"]');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('escapes hostile text everywhere: no element comes from a node, a title or a reason', async () => {
    const evil = '&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &lt;img src=x onerror=alert(1)&gt;';
    const { all, tree } = await page(
      `<section id="s1" v="1" title="${evil}"><text id="t1" v="1">${evil}</text><question id="q1" v="1">${evil}</question></section>` +
        `<table id="tb" v="1"><row><cell>${evil}</cell><cell>b</cell></row></table><figure id="f1" v="1" kind="mermaid" caption="${evil}">x</figure>`,
      {
        lastEdit: { commit: REV, op: 'insert', node: 'q1', author: 'leo | by-hand', reason: '<script>alert(2)</script>', date: '2026-01-01T00:00:00.000Z' },
        ending: { kind: 'frozen', commit: REV, reason: '<script>alert(3)</script>', author: 'leo | by-hand', date: '2026-01-01T00:00:00.000Z', editedSince: false },
        crossings: [{ node: 't1', from: 'root', to: 's1', commit: REV, reason: '<img src=x onerror=alert(4)>' }],
      },
    );
    expect(all.filter((el) => el.tagName === 'img')).toEqual([]);
    expect(all.filter((el) => el.tagName === 'script' && el.properties.src === undefined && textOf(el) !== '')).toHaveLength(1);
    expect(textOf(byId(tree, 't1')!)).toContain('<script>alert(1)</script> ]]> <img src=x onerror=alert(1)>');
    expect(textOf(tree)).toContain('<script>alert(2)</script>');
    expect(textOf(tree)).toContain('frozen at 0123456789abcdef0123456789abcdef01234567: <script>alert(3)</script>');
  });

  it('shows the header: ledger, revision, frozen marker, last edit', async () => {
    const { tree } = await page('<text id="t1" v="1">x</text>', {
      lastEdit: { commit: REV, op: 'replace', node: 't1', author: 'leo | step:implement', reason: 'chose A over B', date: '2026-01-02T03:04:05.000Z' },
      ending: { kind: 'frozen', commit: 'f'.repeat(40), reason: 'done: PR #41 merged', author: 'leo | by-hand', date: '2026-01-02T03:04:05.000Z', editedSince: false },
    });
    const header = elements(tree).find((e) => e.el.tagName === 'header')!.el;
    const text = textOf(header);
    expect(textOf(elements(header).find((e) => e.el.tagName === 'h1')!.el)).toBe('unit');
    expect(text).toContain(REV);
    expect(text).toContain(`frozen at ${'f'.repeat(40)}: done: PR #41 merged`);
    expect(text).toContain('replace t1 by leo | step:implement, 2026-01-02 03:04 UTC: chose A over B');
  });

  it('shows the latest ending: abandoned, or frozen and edited since', async () => {
    const ending = { commit: 'a'.repeat(40), reason: 'superseded by task-9', author: 'leo | by-hand', date: '2026-01-02T03:04:05.000Z' };
    const abandoned = await page('<text id="t1" v="1">x</text>', { ending: { ...ending, kind: 'abandoned', editedSince: false } });
    const header = (tree: typeof abandoned.tree) => elements(tree).find((e) => e.el.tagName === 'header')!.el;
    expect(textOf(header(abandoned.tree))).toContain(`Abandoned. This canvas was abandoned at ${'a'.repeat(40)}: superseded by task-9`);
    expect(elements(header(abandoned.tree)).some((e) => (e.el.properties.className as string[] | undefined)?.includes('abandoned'))).toBe(true);
    const edited = await page('<text id="t1" v="1">x</text>', { ending: { ...ending, kind: 'frozen', editedSince: true } });
    expect(textOf(header(edited.tree))).toContain(`Frozen. This canvas was frozen at ${'a'.repeat(40)}; edited since: superseded by task-9`);
  });

  it('shows no frozen marker on a canvas never frozen', async () => {
    const { tree } = await page('<text id="t1" v="1">x</text>');
    expect(textOf(tree)).not.toContain('frozen at');
  });

  it('renders sections with headings, one level of nesting, tables with a header row, lists', async () => {
    const tree = parsePage(
      await pageOf(
        snapshotOf(
          '<section id="s1" v="1" title="Top"><section id="s2" v="1" title="Inner"><list id="l1" v="1" ordered="true"><item>a</item></list></section>' +
            '<table id="tb" v="1"><row><cell>H1</cell><cell>H2</cell></row><row><cell>a</cell><cell>b</cell></row></table><list id="l2" v="1"><item>c</item></list></section>',
        ),
      ),
    );
    const s1 = byId(tree, 's1')!;
    expect(s1.tagName).toBe('section');
    expect(elements(s1).find((e) => e.el.tagName === 'h2')).toBeDefined();
    const s2 = byId(tree, 's2')!;
    expect(s2.tagName).toBe('section');
    expect(textOf(elements(s2).find((e) => e.el.tagName === 'h3')!.el)).toContain('Inner');
    expect(elements(byId(tree, 'l1')!).some((e) => e.el.tagName === 'ol')).toBe(true);
    expect(elements(byId(tree, 'l2')!).some((e) => e.el.tagName === 'ul')).toBe(true);
    const ths = elements(byId(tree, 'tb')!).filter((e) => e.el.tagName === 'th');
    expect(ths.map((e) => textOf(e.el))).toEqual(['H1', 'H2']);
    expect(ths.every((e) => e.ancestors.some((a) => a.tagName === 'thead'))).toBe(true);
  });

  it('refuses a node type schema 2 does not have, naming it', () => {
    const s = snapshotOf('');
    s.canvas.children.push({ type: 'decision', id: 'd1', v: 1 } as unknown as CanvasNode);
    const e = thrown(() => renderPage(s, { css: CSS }));
    expect(e).toBeInstanceOf(CanvasError);
    expect((e as CanvasError).code).toBe('SCHEMA');
    expect((e as CanvasError).data).toMatchObject({ node: 'd1', type: 'decision' });
  });

  it('renders synchronously from what it is given: the stylesheet passed in, the figures drawn beforehand', async () => {
    const s = snapshotOf('<figure id="f1" v="1" kind="diagram">diagram 1\nnode a "A"</figure><figure id="f2" v="1" kind="diagram">not a diagram</figure>');
    const figures = await drawFigures(s.canvas);
    const html = renderPage(s, { css: 'p{color:red}', figures });
    expect(typeof html).toBe('string');
    expect(html).toContain('<style>p{color:red}</style>');
    const csp = elements(parsePage(html)).find((e) => e.el.properties.httpEquiv?.toString() === 'Content-Security-Policy');
    expect(String(csp?.el.properties.content)).toContain(`style-src ${sha256('p{color:red}')};`);
    expect(html).not.toContain(CSS);
    // The same snapshot and drawings give the same bytes, and the drawing is the one passed in.
    expect(renderPage(s, { css: 'p{color:red}', figures })).toBe(html);
    const f1 = figures.get('f1');
    expect(f1).not.toBeInstanceOf(CanvasError);
    const marked = new Map(figures).set('f1', { type: 'element', tagName: 'svg', properties: { id: 'f1-marked' }, children: [] });
    expect(renderPage(s, { css: 'p{color:red}', figures: marked })).toContain('id="f1-marked"');
  });

  it('refuses a diagram or svg figure whose drawing was not given (USAGE), and needs none for other figures', () => {
    const svg = '<figure id="f2" v="1" kind="svg"><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg></figure>';
    for (const nodes of ['<figure id="f1" v="1" kind="diagram">diagram 1\nnode a "A"</figure>', svg]) {
      const e = thrown(() => renderPage(snapshotOf(nodes), { css: CSS }));
      expect((e as CanvasError).code, nodes).toBe('USAGE');
    }
    expect(renderPage(snapshotOf(MERMAID), { css: CSS })).toContain('<pre class="mermaid" tabindex="0">');
  });

  it('draws a diagram and an SVG figure inline, with a caption, labels as text and ids prefixed by the node id', async () => {
    const { tree, all } = await page(
      '<figure id="f1" v="1" kind="diagram" caption="flow">diagram 1\nnode a "&lt;b&gt;x&lt;/b&gt;"\nnode b "B"\na -&gt; b</figure>' +
        '<figure id="f2" v="1" kind="svg"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/></svg></figure>',
    );
    const f1 = byId(tree, 'f1')!;
    expect(f1.tagName).toBe('figure');
    expect(textOf(elements(f1).find((e) => e.el.tagName === 'figcaption')!.el)).toBe('Diagram: flow');
    expect(elements(f1).some((e) => e.el.tagName === 'svg')).toBe(true);
    expect(textOf(f1)).toContain('<b>x</b>');
    expect(all.filter((el) => el.tagName === 'b')).toEqual([]);
    const f2 = byId(tree, 'f2')!;
    expect(textOf(elements(f2).find((e) => e.el.tagName === 'figcaption')!.el)).toBe('Picture (SVG)');
    const gradient = elements(f2).find((e) => e.el.tagName === 'lineargradient' || e.el.tagName === 'linearGradient');
    expect(gradient?.el.properties.id).toBe('f2-g');
    expect(all.filter((el) => el.tagName === 'script')).toEqual([]);
  });

  it('given a drawing that failed, shows the source and why and still renders the page; preparePage refuses it (FIGURE_NOT_DRAWN)', async () => {
    const snapshot = snapshotOf('<figure id="f1" v="1" kind="diagram">not a diagram</figure><text id="t1" v="1">after</text>');
    await expect(pageOf(snapshot)).rejects.toMatchObject({ code: 'FIGURE_NOT_DRAWN', data: { node: 'f1', cause: 'DIAGRAM_SYNTAX' } });
    const tree = parsePage(renderPage(snapshot, { css: '', figures: await drawFigures(snapshot.canvas) }));
    const f1 = byId(tree, 'f1')!;
    expect(textOf(elements(f1).find((e) => classes(e.el).includes('figure-error'))!.el)).toContain('DIAGRAM_SYNTAX');
    expect(textOf(elements(f1).find((e) => e.el.tagName === 'pre')!.el)).toBe('not a diagram');
    expect(byId(tree, 't1')).toBeDefined();
  });
});
