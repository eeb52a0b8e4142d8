import type { Element, ElementContent } from 'hast';
import { s } from 'hastscript';
import type { Element as XastElement } from 'xast';
import { toXml } from 'xast-util-to-xml';
import { CanvasError } from '../../model/canvas-error.js';
import { purifySvg } from '../../model/svg/svg-purifier.js';

/** Options of {@link sanitizeSvg}. */
export interface SanitizeSvgOptions {
  /**
   * Prefix for every `id` inside the SVG, and for every local reference to one, so the SVG's ids
   * never meet the page's: `^[A-Za-z][A-Za-z0-9_-]*$`, for example the figure's node id and `-`.
   */
  idPrefix: string;
}

const ID_PREFIX = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** ARIA attributes that hold id references (space-separated). */
const ID_LISTS = new Set(['aria-activedescendant', 'aria-controls', 'aria-describedby', 'aria-details', 'aria-errormessage', 'aria-flowto', 'aria-labelledby', 'aria-owns']);

/** Rewrite one attribute value so its ids and local references carry the prefix. */
function prefixed(name: string, value: string, prefix: string): string {
  if (name === 'id') return prefix + value;
  if (ID_LISTS.has(name)) {
    return value
      .split(/[ \t\n\r\f]+/)
      .filter((t) => t !== '')
      .map((t) => prefix + t)
      .join(' ');
  }
  if (name === 'href' || name === 'xlink:href') {
    const trimmed = value.trim();
    return trimmed.startsWith('#') ? `#${prefix}${trimmed.slice(1)}` : value;
  }
  return value.replace(/url\(\s*(['"]?)\s*#/gi, (_m, quote: string) => `url(${quote}#${prefix}`);
}

function toHast(e: globalThis.Element, prefix: string): Element {
  const properties: Record<string, string> = {};
  for (const a of e.attributes) properties[a.name] = prefixed(a.name.toLowerCase(), a.value, prefix);
  const children: ElementContent[] = [];
  for (const c of e.childNodes) {
    if (c.nodeType === 1) children.push(toHast(c as globalThis.Element, prefix));
    else if (c.nodeType === 3) children.push({ type: 'text', value: c.nodeValue ?? '' });
  }
  return s(e.localName, properties, children);
}

/**
 * Sanitize a stored SVG figure again for a page (`docs/svg.md`, "Rendering": defence in depth) and
 * isolate its ids: every `id` inside gets `idPrefix`, and every local reference (`href="#x"`,
 * `xlink:href="#x"`, `url(#x)` in any attribute, ARIA id lists) is rewritten to match, dangling
 * ones included, so the SVG can neither collide with nor point at the page's ids. Uses the same
 * hardened DOMPurify as the write-time check, one jsdom window per process, loaded on first use.
 *
 * @param svg - the figure's `svg` element (xast, as in `FigureNode.svg`)
 * @param options - `idPrefix`, required
 * @returns a hast `svg` element, ready for hast-util-to-html; an empty `<svg>` when nothing of
 *   the input survives (a write-time check makes that impossible for a stored canvas)
 * @throws CanvasError `USAGE` for an `idPrefix` that is not `^[A-Za-z][A-Za-z0-9_-]*$`
 */
export async function sanitizeSvg(svg: XastElement, options: SanitizeSvgOptions): Promise<Element> {
  if (!ID_PREFIX.test(options.idPrefix)) {
    throw new CanvasError('USAGE', `idPrefix "${options.idPrefix}" must match ${ID_PREFIX}`, 'pass a prefix of letters, digits, _ and -, starting with a letter');
  }
  const { svg: clean } = await purifySvg(toXml(svg), '/figure');
  if (!clean) return s('svg', { xmlns: 'http://www.w3.org/2000/svg' }, []);
  return toHast(clean, options.idPrefix);
}
