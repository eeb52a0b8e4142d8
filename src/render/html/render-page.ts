import type { Element, ElementContent, Root, RootContent } from 'hast';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';
import { indexNodes } from '../../model/index-nodes.js';
import type { FigureDrawings } from '../figures/draw-figures.js';
import { MERMAID_PIN } from '../figures/mermaid-pin.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import { headElements } from './head-elements.js';
import { type LiveAssets, liveElements } from './live-assets.js';
import type { PageContext } from './page-context.js';
import { pageHeader } from './page-header.js';
import { questionIndex } from './question-index.js';
import { renderNode } from './render-node.js';
import { tableOfContents } from './table-of-contents.js';
import { MAIN_ID, topLinks } from './top-links.js';
import { isolateBidi } from '../isolate-bidi.js';

/** What {@link renderPage} is given besides the snapshot: {@link preparePage}'s result, and a title. */
export interface PageOptions {
  /** The stylesheet, inlined as it is: `templates/page.css` as shipped (`preparePage` reads it). */
  css: string;
  /**
   * The drawings of the snapshot's `diagram` and `svg` figures, by figure id (`drawFigures`);
   * default none, which is enough for a canvas without such a figure.
   */
  figures?: FigureDrawings | undefined;
  /** The page title; default `<ledger> · canvas`. */
  title?: string | undefined;
  /** For a page `canvas serve` serves: its script and stylesheet (docs/serve.md); default none. */
  live?: LiveAssets | undefined;
  /**
   * The address of the site's index page relative to this page (`../index.html`, as `canvas
   * build` gives it); the page then links back to it, and a `canvas:` link goes to the other
   * canvas's page beside it, `<ledger>/index.html` in the index's folder (docs/links.md). Default
   * none: a standalone page.
   */
  index?: string | undefined;
  /**
   * The address of the site's own copy of the pinned Mermaid package relative to this page
   * (`../_vendor/mermaid-12.3.0/`, as `canvas build --vendor-mermaid` gives it): a Mermaid figure
   * then loads the module from there, with the same integrity hash. Default: the pinned CDN URL.
   */
  mermaid?: string | undefined;
  /**
   * An inline module script the page carries, and its `data-*` attributes (`{ledger: 'x'}` gives
   * `data-ledger="x"`): the view an MCP host draws (docs/mcp.md, "The canvas in chat hosts").
   * The page's policy admits it by its hash, and nothing else for it. Default none.
   */
  script?: { text: string; data: Readonly<Record<string, string>> } | undefined;
}

const NO_FIGURES: FigureDrawings = new Map();

/** Where a site's pages are, from its index's address: each canvas's folder beside the index. */
function canvasHrefs(index: string | undefined): PageContext['canvasHref'] {
  if (index === undefined) return null;
  const folder = index.slice(0, index.lastIndexOf('/') + 1);
  return (t) => `${folder}${t.ledger}/index.html${t.node === null ? '' : `#${t.node}`}`;
}

/** Elements whose element children go one per line, so a golden diff reads like code. */
const BLOCKS = new Set(['html', 'head', 'body', 'header', 'main', 'footer', 'nav', 'section', 'div', 'figure', 'ul', 'ol', 'dl', 'details', 'table', 'thead', 'tbody', 'tr']);

function breakLines(node: Root | Element): void {
  // Plain loops: this runs once per element of the page, in a process too short to optimise it.
  const children = node.children as RootContent[];
  let onlyElements = true;
  for (const c of children) {
    if (c.type === 'element') {
      if (c.tagName !== 'svg' && c.tagName !== 'pre') breakLines(c);
    } else if (c.type !== 'doctype') onlyElements = false;
  }
  if (node.type === 'element' && (!BLOCKS.has(node.tagName) || !onlyElements)) return;
  const out: RootContent[] = [];
  for (let i = 0; i < children.length; i++) {
    if (i > 0 || node.type === 'element') out.push({ type: 'text', value: '\n' });
    out.push(children[i]!);
  }
  if (node.type === 'element' && out.length > 0) out.push({ type: 'text', value: '\n' });
  if (node.type === 'root') out.push({ type: 'text', value: '\n' });
  node.children = out as typeof node.children;
}

/**
 * Keep every text's bidirectional controls inside it (docs/projections.md, "Bidirectional text"):
 * a text holding one becomes `<bdi>` (an isolate in HTML) around the text isolated character by
 * character as well ({@link isolateBidi}), so even a stray U+2069 in it cannot close the isolate
 * early. Inside an SVG, where `bdi` is no element, the characters alone do it. Copy on write: an
 * element with no such text below it is returned as it is (a 1,000-node page has thousands of
 * elements and nearly never such a text), and one with any is copied, never changed, since the
 * figures' drawings are the caller's (`PageOptions.figures`) and rendering them again must not
 * isolate their texts twice.
 *
 * @returns the node, or a copy holding the isolated texts
 */
function isolateTexts<T extends Root | Element>(node: T, inSvg = false): T {
  let children: RootContent[] | undefined;
  const given = node.children as RootContent[];
  for (let i = 0; i < given.length; i++) {
    const c = given[i]!;
    let next: RootContent = c;
    if (c.type === 'element') {
      if (c.tagName !== 'head' && c.tagName !== 'script' && c.tagName !== 'style') next = isolateTexts(c, inSvg || c.tagName === 'svg');
    } else if (c.type === 'text') {
      const isolated = isolateBidi(c.value);
      if (isolated !== c.value) next = inSvg ? { type: 'text', value: isolated } : h('bdi', isolated);
    }
    if (next === c) continue;
    children ??= given.slice();
    children[i] = next;
  }
  return children === undefined ? node : { ...node, children };
}

function hasMermaid(nodes: readonly CanvasNode[]): boolean {
  return nodes.some((n) => (n.type === 'section' ? hasMermaid(n.children) : n.type === 'figure' && n.kind === 'mermaid'));
}

/**
 * Render a snapshot as one standalone HTML page (`docs/projections.md`, "The page"): a hast tree
 * serialized by hast-util-to-html, synchronously and without I/O. The stylesheet is inlined from
 * `options.css`; there is no external stylesheet, font or image. The header names the ledger, the
 * revision, the frozen marker and the last edit; a skip link comes first, then, when
 * `options.index` is given, a link back to the site's index; `id="questions"` indexes every
 * question; a canvas with four sections or more has a table of contents; every
 * node's element has `id="<node id>"`; a node that crossed between sections shows its latest
 * move's reason and short sha. Figures show the drawings in `options.figures`. A page with a
 * Mermaid figure, and only such a page, loads the pinned module. A Content-Security-Policy meta
 * allows only what the page uses.
 *
 * @param snapshot - one read of a canvas at one revision (from `readSnapshot`)
 * @param options - `css` (required), `figures` (from `drawFigures`), `title`, `index`, `mermaid`, `script`; `preparePage`
 *   gives the first two: `renderPage(snapshot, await preparePage(snapshot))`
 * @returns the page, UTF-8 text ending in a line feed; the same snapshot and options give the
 *   same bytes
 * @throws CanvasError `SCHEMA` for a node type schema 2 does not have; `USAGE` for a `diagram`
 *   or `svg` figure without its drawing in `options.figures`
 */
export function renderPage(snapshot: Snapshot, options: PageOptions): string {
  const crossings = new Map<string, Crossing>(snapshot.crossings.map((c) => [c.node, c]));
  const renderChildren = (children: readonly CanvasNode[], depth: number): ElementContent[] => children.map((child) => renderNode(child, { ...ctx, depth }));
  const ctx: PageContext = { snapshot, crossings, figures: options.figures ?? NO_FIGURES, canvasHref: canvasHrefs(options.index), depth: 0, renderChildren };
  const body = renderChildren(snapshot.canvas.children, 0);
  const mermaid = hasMermaid(snapshot.canvas.children);
  const nodeCount = indexNodes(snapshot.canvas).size;
  const contents = tableOfContents(snapshot.canvas);

  const head: ElementContent[] = headElements(options.title ?? `${snapshot.ledger} · canvas`, options.css);
  if (mermaid) {
    const url = options.mermaid === undefined ? MERMAID_PIN.url : `${options.mermaid}${MERMAID_PIN.entry}`;
    head.push(
      h('script', { type: 'module', src: url, integrity: MERMAID_PIN.integrity, crossOrigin: 'anonymous' }),
      h('script', { type: 'module' }, options.mermaid === undefined ? MERMAID_PIN.init : MERMAID_PIN.startModule(url)),
    );
  }
  head.push(...liveElements(options.live));
  if (options.script) {
    const data = Object.fromEntries(Object.entries(options.script.data).map(([k, v]) => [`data-${k}`, v]));
    head.push(h('script', { type: 'module', ...data }, options.script.text));
  }
  const html = h('html', { lang: 'en' }, [
    h('head', head),
    h('body', [
      ...topLinks(options.index),
      pageHeader(snapshot),
      questionIndex(snapshot.canvas),
      ...(contents ? [contents] : []),
      h('main', { id: MAIN_ID, className: ['canvas'] }, body.length > 0 ? body : [h('p', { className: ['empty'] }, 'This canvas is empty.')]),
      h('footer', [
        h('p', [
          `Rendered from revision `,
          h('code', snapshot.revision),
          ` of canvas ${snapshot.ledger} (${nodeCount} ${nodeCount === 1 ? 'node' : 'nodes'}). This page is a projection: it is regenerated, never edited.`,
        ]),
      ]),
    ]),
  ]);
  const tree: Root = { type: 'root', children: [{ type: 'doctype' }, html] };
  // A live page may receive a Mermaid figure in an update, which its script draws in place
  // (docs/serve.md, "Live"), so its policy admits the pinned module whether or not it has one now.
  const policy = contentSecurityPolicy(tree, { mermaid: mermaid || options.live !== undefined, vendored: options.mermaid !== undefined });
  // The policy goes right after the charset, before anything it governs.
  head.splice(1, 0, h('meta', { httpEquiv: 'Content-Security-Policy', content: policy }));
  (html.children[0] as Element).children = head;
  const isolated = isolateTexts(tree);
  breakLines(isolated);
  return toHtml(isolated, { upperDoctype: true });
}
