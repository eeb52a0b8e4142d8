/**
 * Minimal escaping for canonical bytes (docs/canonical.md). The xast serializer
 * (xast-util-to-xml) writes hexadecimal references such as `&#x3C;` and leaves tab and line feed
 * raw in attributes, which would not round-trip; the canonical form needs the named minimal
 * escapes and `&#9;`/`&#10;` in attributes, so these two functions are the whole of it.
 */

/** What {@link escapeText} and {@link escapeAttribute} replace, and with what. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', ']]>': ']]&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
const TEXT = /[&<]|]]>/g;
const HAS_TEXT = /[&<]|]]>/;
const ATTRIBUTE = /[&<"\t\n\r]/g;
const HAS_ATTRIBUTE = /[&<"\t\n\r]/;
const escapeOne = (c: string): string => ESCAPES[c]!;

// Most values need no escape: one test, and the value as it is (a 1,000-node canvas is
// serialized again on every read of its cached tree, docs/store.md "Derived facts cache").

/** Escape character data: `&` and `<` always, `>` only where it would close `]]>`. */
export function escapeText(value: string): string {
  return HAS_TEXT.test(value) ? value.replace(TEXT, escapeOne) : value;
}

/** Escape an attribute value for double quotes: `&`, `<`, `"`, tab, line feed, carriage return. */
export function escapeAttribute(value: string): string {
  return HAS_ATTRIBUTE.test(value) ? value.replace(ATTRIBUTE, escapeOne) : value;
}
