import type { ElementContent, Element as XastElement, Root } from 'xast';
import { fromXml } from 'xast-util-from-xml';
import { CanvasError } from './canvas-error.js';
import { childPaths, schemaError } from './convert-element.js';

/** Characters XML refuses raw: C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF. */
const RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** A numeric character reference. */
const REFERENCE = /&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g;

/** True when XML can hold the code point (XML 1.0's `Char` production). */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

function codePointOf(m: RegExpExecArray): number {
  return m[1] !== undefined ? Number.parseInt(m[1], 16) : Number(m[2]);
}

function uPlus(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Where in the tree a source offset falls: the node path and what holds it. */
function placeOf(root: Root, source: string, offset: number): { path: string; where: string } | null {
  const top = root.children.find((c): c is XastElement => c.type === 'element');
  if (!top) return null;
  let el: XastElement = top;
  let path = `/${el.name}`;
  for (;;) {
    const paths = childPaths(path, el.children);
    const inside: ElementContent | undefined = el.children.find(
      (c) => c.position?.start.offset !== undefined && c.position.end.offset !== undefined && c.position.start.offset <= offset && offset < c.position.end.offset,
    );
    if (inside?.type === 'element') {
      el = inside;
      path = paths.get(inside)!;
      continue;
    }
    if (inside) return { path, where: 'the character data' };
    // Not in any child: in the element's start tag, that is in an attribute value.
    const start = el.position?.start.offset ?? 0;
    const end = el.children[0]?.position?.start.offset ?? el.position?.end.offset ?? source.length;
    const tag = source.slice(start, end);
    for (const a of tag.matchAll(/([^\s=<>/"']+)\s*=\s*("[^"]*"|'[^']*')/g)) {
      const from = start + a.index;
      if (from <= offset && offset < from + a[0].length) return { path, where: `attribute ${a[1]}` };
    }
    return { path, where: 'the element' };
  }
}

/**
 * Explain the parser's "invalid character" refusal as `--text` does (docs/errors.md, `SCHEMA`):
 * name the code point, how it was written (raw or as a numeric reference such as `&#x8;`) and the
 * node path. The path comes from parsing a copy with every such character masked; when that copy
 * does not parse either, the message gives the line and column instead.
 *
 * @param text - the XML source the parser refused (after the BOM was dropped)
 * @param offset - the parser's offset: at a raw character, or just after a reference
 * @param at - the parser's line and column, for the data and a path-less message
 * @returns the `SCHEMA` error, or null when no refused character is at that offset
 */
export function badCharacterError(text: string, offset: number, at: { line?: number | undefined; column?: number | undefined }): CanvasError | null {
  const raw = text.charCodeAt(offset);
  let cp: number | null = null;
  let written = '';
  if (offset < text.length && !isXmlChar(raw) && !(raw >= 0xd800 && raw <= 0xdfff)) {
    cp = raw;
  } else {
    for (const m of text.slice(0, offset).matchAll(REFERENCE)) {
      if (m.index + m[0].length === offset && !isXmlChar(codePointOf(m))) {
        cp = codePointOf(m);
        written = ` (written as ${m[0]})`;
      }
    }
  }
  if (cp === null) return null;
  const masked = text.replace(RAW, ' ').replace(REFERENCE, (m, hex?: string, dec?: string) => {
    const n = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return isXmlChar(n) ? m : 'x'.repeat(m.length);
  });
  let place: { path: string; where: string } | null = null;
  try {
    place = placeOf(fromXml(masked), masked, offset - (written ? 1 : 0));
  } catch {
    place = null;
  }
  const rule = `holds the character ${uPlus(cp)}${written}, which a canvas cannot hold; of the control characters only tab and line feed are allowed`;
  const data = { codePoint: uPlus(cp), line: at.line, column: at.column };
  if (!place) return new CanvasError('SCHEMA', `the XML at line ${at.line}, column ${at.column} ${rule}`, 'remove the character', { rule, ...data });
  return schemaError(place.path, `${place.where} ${rule}`, 'remove the character', data);
}
