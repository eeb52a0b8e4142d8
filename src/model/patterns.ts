/** The patterns of ledger ids, node ids and authors (docs/store.md, docs/schema.md), each written once. */

/** A ledger id (docs/store.md "Workspace"): also must not end in `.xml`. */
export const LEDGER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A node id (docs/schema.md). */
export const NODE_ID = /^[a-z][a-z0-9]{1,11}$/;
/** A node version: a positive integer written without leading zeros. */
export const VERSION = /^[1-9][0-9]{0,8}$/;
/** Control characters refused in documents: C0 but tab and line feed, DEL, C1. */
export const DOC_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
/** `who`, `step` and `run` of an author (docs/store.md "Writes"). */
export const AUTHOR_PART = /^[A-Za-z0-9][A-Za-z0-9._@:-]*$/;
/** The SVG namespace. */
export const SVG_NS = 'http://www.w3.org/2000/svg';
