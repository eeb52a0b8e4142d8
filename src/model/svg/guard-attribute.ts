/**
 * The attribute rules the SVG sanitizer adds to DOMPurify's SVG profile (docs/svg.md,
 * docs/svg.md "The write-time check"). Pure string logic, kept apart so it reads as a list.
 */

/** Attributes whose value is a URL (beyond `href` and `xlink:href`, which have their own rule). */
const URL_ATTRIBUTES = new Set(['src', 'action', 'formaction', 'data', 'poster', 'background', 'xml:base', 'to', 'from', 'by', 'values', 'ping', 'srcset', 'codebase', 'cite', 'longdesc']);

/** CSS functions that fetch something, besides `url(`. */
const FETCHING = ['image-set(', 'image(', 'cross-fade(', 'element(', 'src(', 'expression(', '@import'];

/** Decode CSS escapes (`\75` or `\u`) and drop comments, so `u\72l(` reads as `url(`. */
function decodeCss(value: string): string {
  return value.replace(/\/\*[\s\S]*?(\*\/|$)/g, '').replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([\s\S])/g, (_, hex: string | undefined, char: string | undefined) => {
    if (hex === undefined) return char ?? '';
    const cp = Number.parseInt(hex, 16);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

/** A URL as a browser judges its scheme: trimmed, tabs and line ends removed, case-folded. */
function urlKey(value: string): string {
  return value
    .trim()
    .replace(/[\t\n\r]/g, '')
    .toLowerCase();
}

/** True when a value (after CSS decoding) refers only to local fragments, or to nothing. */
function onlyLocalReferences(value: string): boolean {
  const decoded = decodeCss(value).toLowerCase();
  if (FETCHING.some((f) => decoded.includes(f))) return false;
  if (!decoded.includes('url(')) return true;
  // Escapes or comments inside a url() are refused outright: the renderer rewrites `url(#id)`
  // as written, so what it reads must be what a browser reads.
  if (decoded !== value.toLowerCase()) return false;
  for (const m of decoded.matchAll(/url\(\s*(['"]?)/g)) {
    const rest = decoded.slice(m.index + m[0].length);
    if (!rest.startsWith('#')) return false;
  }
  return true;
}

/**
 * Decide whether an attribute may stay on an SVG element.
 *
 * @param element - the element's local name (`a`, `use`, `image`, ...)
 * @param name - the attribute name, lower-cased (`href`, `xlink:href`, `fill`, ...)
 * @param value - the attribute value as parsed
 * @returns false for an event handler, an `href` that is not a local `#id` (on `<a>` also
 *   http, https or mailto), a script or data URL in a URL attribute, an animation aimed at `href`,
 *   and any value whose `url(...)` points anywhere but a local `#id`
 */
export function guardAttribute(element: string, name: string, value: string): boolean {
  if (name.startsWith('on')) return false;
  if (name === 'href' || name === 'xlink:href') {
    const key = urlKey(value);
    if (key.startsWith('#')) return true;
    return element === 'a' && /^(https?|mailto):/.test(key);
  }
  if (URL_ATTRIBUTES.has(name) && /^(javascript|data|vbscript):/.test(urlKey(value))) return false;
  if (name === 'attributename' && value.toLowerCase().includes('href')) return false;
  return onlyLocalReferences(value);
}
