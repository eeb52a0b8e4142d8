/**
 * Minimal escaping for canonical bytes (docs/canonical.md). The xast serializer
 * (xast-util-to-xml) writes hexadecimal references such as `&#x3C;` and leaves tab and line feed
 * raw in attributes, which would not round-trip; the canonical form needs the named minimal
 * escapes and `&#9;`/`&#10;` in attributes, so these two functions are the whole of it.
 */

/** Escape character data: `&` and `<` always, `>` only where it would close `]]>`. */
export function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/]]>/g, ']]&gt;');
}

/** Escape an attribute value for double quotes: `&`, `<`, `"`, tab, line feed, carriage return. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
