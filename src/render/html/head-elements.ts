import type { ElementContent } from 'hast';
import { h } from 'hastscript';

/**
 * The head every standalone page starts with (the canvas page and the site index): charset,
 * viewport for phones, light and dark colour schemes, no referrer, the title and the inlined
 * stylesheet. The Content-Security-Policy meta is added after the page is built, from what it uses.
 *
 * @param title - the page title
 * @param css - the stylesheet text, inlined
 */
export function headElements(title: string, css: string): ElementContent[] {
  return [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('meta', { name: 'color-scheme', content: 'light dark' }),
    h('meta', { name: 'referrer', content: 'no-referrer' }),
    h('meta', { name: 'generator', content: 'canvas' }),
    h('title', title),
    h('style', css),
  ];
}
