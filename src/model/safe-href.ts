/** The schemes a projection turns into a link (`docs/projections.md`, "What all three say"). */
const ALLOWED = ['http', 'https', 'mailto'] as const;

/** Whitespace and control characters: trimmed from the ends, ignored inside when judging. */
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/gu;
const EDGES = /^[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+$/gu;

/** The named references a browser would decode in an attribute that can hide a scheme. */
const NAMED: Readonly<Record<string, string>> = {
  tab: '\t',
  newline: '\n',
  colon: ':',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  sol: '/',
  period: '.',
  lpar: '(',
  rpar: ')',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (m, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

function decodePercent(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** Decode entities and percent-escapes until nothing changes (a double encoding hides nothing). */
function decodeAll(s: string): string {
  let current = s;
  for (let i = 0; i < 8; i += 1) {
    const next = decodePercent(decodeEntities(current));
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** The scheme a string names, lower-cased, or null when it names none. */
function schemeOf(s: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):/.exec(s);
  return m ? m[1]! : null;
}

/**
 * The scheme an href names as a browser would judge it (decoded, whitespace and controls removed,
 * case-folded), or null when it names none (a relative reference such as `example.com/x`).
 *
 * @param href - the href as stored
 * @returns the lower-cased scheme without its colon, or null
 */
export function judgedScheme(href: string): string | null {
  return schemeOf(decodeAll(href.replace(EDGES, '')).replace(SPACE_OR_CONTROL, '').toLowerCase());
}

/**
 * Judge a link's href (`docs/projections.md`, "What all three say"): only `http`, `https` and
 * `mailto` become anchors. The scheme is judged after decoding character references and
 * percent-escapes, removing whitespace and control characters, and case-folding; and the href as
 * written must name the same scheme plainly, so `%6Aavascript:`, `java&#x09;script:`,
 * `JaVaScRiPt:`, ` javascript:` and `data:` are never links, and neither is `https%3A//` (a
 * relative path a browser would resolve elsewhere).
 *
 * @param href - the link node's `href`, as stored
 * @returns the href to put in an anchor (whitespace and controls trimmed from its ends), or null
 *   when it must be shown as code
 */
export function safeHref(href: string): string | null {
  const trimmed = href.replace(EDGES, '');
  const scheme = judgedScheme(href);
  if (scheme === null || !(ALLOWED as readonly string[]).includes(scheme)) return null;
  if (schemeOf(trimmed.toLowerCase()) !== scheme) return null;
  if (trimmed.length === scheme.length + 1) return null;
  return trimmed;
}
