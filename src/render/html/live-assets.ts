import type { Element } from 'hast';
import { h } from 'hastscript';

/**
 * What a page served live by `canvas serve` loads besides itself (docs/serve.md, "The pages"):
 * the server's own script and stylesheet, by absolute path on the same origin. A page built by
 * `canvas build` or `canvas render` has none.
 */
export interface LiveAssets {
  /** The page script's path, for example `/_canvas/live.js`. */
  script: string;
  /** The stylesheet of the live controls, for example `/_canvas/live.css`. */
  stylesheet: string;
}

/**
 * The head elements that load a page's live assets: the stylesheet link and the module script.
 * The page's Content-Security-Policy admits them as `'self'` (it is derived from the page).
 *
 * @param live - the assets, or undefined for a static page
 * @returns `[<link rel="stylesheet">, <script type="module">]`, or `[]`
 */
export function liveElements(live: LiveAssets | undefined): Element[] {
  if (!live) return [];
  return [h('link', { rel: 'stylesheet', href: live.stylesheet }), h('script', { type: 'module', src: live.script })];
}
