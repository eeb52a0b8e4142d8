import type { Schema } from 'hast-util-sanitize';

/**
 * The tags Basecamp's rich text keeps (bc3-api `sections/rich_text.md`, "Allowed HTML tags"):
 * anything else is removed on Basecamp's side, so nothing else is ever sent.
 */
export const BASECAMP_TAGS = ['div', 'h1', 'br', 'strong', 'em', 'strike', 'a', 'pre', 'ol', 'ul', 'li', 'blockquote'] as const;

/** The link schemes the publisher sends; any other link is shown as text (`docs/basecamp.md`). */
export const SAFE_SCHEMES = ['http', 'https', 'mailto'] as const;

/**
 * The `hast-util-sanitize` schema for Basecamp rich text: exactly {@link BASECAMP_TAGS}, `href` on
 * `a` only, with {@link SAFE_SCHEMES}; no comments, no doctype, no ids, no classes. Elements outside
 * it are unwrapped to their text, and `script`/`style` are dropped whole. The mapping step before
 * it (`src/publish/handlers/`) already produces only these tags; the schema is the guarantee that
 * nothing else can pass through.
 */
export const BASECAMP_SCHEMA: Schema = {
  tagNames: [...BASECAMP_TAGS],
  attributes: { a: ['href'] },
  protocols: { href: [...SAFE_SCHEMES] },
  required: {},
  ancestors: { li: ['ol', 'ul'] },
  clobber: [],
  clobberPrefix: '',
  strip: ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'textarea', 'title'],
  allowComments: false,
  allowDoctypes: false,
};
