import type { Handler, Handlers } from 'mdast-util-to-hast';
import { code } from './code.js';
import { footnoteDefinition, footnoteReference } from './footnotes.js';
import { heading } from './heading.js';
import { image } from './image.js';
import { inlineCode } from './inline-code.js';
import { link } from './link.js';
import { list } from './list.js';
import { listItem } from './list-item.js';
import { paragraph } from './paragraph.js';
import { rawHtml } from './raw-html.js';
import { imageReference, linkReference } from './references.js';
import { strike } from './strike.js';
import { table } from './table.js';
import { textHandler } from './text.js';
import { thematicBreak } from './thematic-break.js';
import { unknown } from './unknown.js';

/**
 * The mapping step from Markdown to Basecamp rich text: one handler per mdast node type whose
 * default HTML is not one of Basecamp's tags (`docs/basecamp.md` has the table). The rest keep
 * mdast-util-to-hast's defaults: `root`, `blockquote`, `strong` (`strong`), `emphasis` (`em`),
 * `break` (`br`), `definition` (nothing).
 */
export const BASECAMP_HANDLERS: Handlers = {
  paragraph,
  heading,
  code,
  inlineCode,
  delete: strike,
  link,
  linkReference,
  image,
  imageReference,
  html: rawHtml,
  thematicBreak,
  list,
  listItem,
  table,
  text: textHandler,
  footnoteReference,
  footnoteDefinition,
};

/** Any node type no handler knows becomes its plain text. */
export const UNKNOWN_HANDLER: Handler = unknown;
