/**
 * TEMPORARY FALLBACK for the figure drawers, until `src/render/figures/draw-diagram.ts` and
 * `src/render/figures/sanitize-svg.ts` are on this branch. Same signatures as those functions;
 * each shows the figure's source as escaped text in a `<pre>`, so a page stays readable and safe.
 * The figure handler imports these two names from here; switching it to the real drawers is a
 * change of import path, and then this file is deleted.
 */
import type { Element } from 'hast';
import { h } from 'hastscript';
import type { Element as XastElement } from 'xast';
import { toXml } from 'xast-util-to-xml';

/** Options of the drawers: a prefix for every id inside the drawing, unique on the page. */
export interface DrawOptions {
  idPrefix: string;
}

/**
 * FALLBACK: show a Canvas Diagram 1 source as escaped text (the real drawer returns an `svg`).
 *
 * @param source - the diagram source
 * @param _options - the id prefix (unused here)
 * @returns `<pre class="figure-source">`
 */
export function drawDiagram(source: string, _options: DrawOptions): Element {
  return h('pre', { className: ['figure-source'] }, source);
}

/**
 * FALLBACK: show an SVG figure's markup as escaped text (the real sanitizer returns an `svg`).
 *
 * @param svg - the figure's `svg` element (xast)
 * @param _options - the id prefix (unused here)
 * @returns `<pre class="figure-source">`
 */
export function sanitizeSvg(svg: XastElement, _options: DrawOptions): Promise<Element> {
  return Promise.resolve(h('pre', { className: ['figure-source'] }, toXml(svg)));
}
