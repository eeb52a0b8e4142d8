/** The patterns of ledger ids, node ids and authors (docs/store.md, docs/schema.md), each written once. */

/** A ledger id (docs/store.md "Workspace"): also must not end in `.xml`. */
export const LEDGER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A node id (docs/schema.md). */
export const NODE_ID = /^[a-z][a-z0-9]{1,11}$/;
/** A node version: a positive integer written without leading zeros. */
export const VERSION = /^[1-9][0-9]{0,8}$/;
/** Control characters refused in documents: C0 but tab and line feed, DEL, C1. */
export const DOC_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
/**
 * Control characters refused in a reason: all of C0, DEL, C1, U+2028/U+2029, and the
 * bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which make a
 * line read differently from what it says.
 */
export const REASON_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). */
export const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** `who`, `step` and `run` of an author (docs/store.md "Writes"). */
export const AUTHOR_PART = /^[A-Za-z0-9][A-Za-z0-9._@:-]*$/;
/** The SVG namespace. */
export const SVG_NS = 'http://www.w3.org/2000/svg';
/** A lone surrogate: text that is not well-formed Unicode. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters XML cannot hold at all (besides the C0 controls): U+FFFE and U+FFFF. */
export const XML_NONCHAR = /[\uFFFE\uFFFF]/;
