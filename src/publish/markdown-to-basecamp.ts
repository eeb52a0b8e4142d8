import type { Element, ElementContent, Root, RootContent } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import { BASECAMP_SCHEMA } from './basecamp-schema.js';
import { KEEP_WITH_NEXT, spacer, text } from './handlers/build.js';
import { BASECAMP_HANDLERS, UNKNOWN_HANDLER } from './handlers/index.js';

/** Separate the block children of a root or a blockquote with an empty line ({@link spacer}). */
function spaceBlocks<T extends Root | Element>(node: T): T {
  const blocks = node.children.filter((c) => c.type === 'element') as Element[];
  const children: RootContent[] = [];
  blocks.forEach((block, i) => {
    const previous = blocks[i - 1];
    if (previous) children.push(...(KEEP_WITH_NEXT.has(previous) ? [text('\n')] : [text('\n'), spacer(), text('\n')]));
    children.push(block.tagName === 'blockquote' ? spaceBlocks(block) : block);
  });
  return { ...node, children: children as ElementContent[] };
}

/** Which Markdown the source is written in. */
export interface MarkdownDialect {
  /**
   * GFM (tables, strikethrough, autolinks, task items, footnotes) on top of CommonMark (default
   * `true`). The canvas comment render is plain CommonMark: its serializer escapes nothing for
   * GFM, so it is read without it and a canvas text like `~~x~~` stays text.
   */
  gfm?: boolean;
}

/**
 * Convert Markdown to a hast tree of Basecamp rich text (docs/basecamp.md):
 * CommonMark, with GFM unless told otherwise, parsed to mdast, mapped by one handler per node type
 * to Basecamp's tags, blocks separated by an empty line, then sanitized with
 * {@link BASECAMP_SCHEMA}. Raw HTML in the Markdown arrives as text.
 *
 * @param markdown - the Markdown source
 * @param dialect - `{gfm}`: whether GFM syntax is read (default `true`)
 * @returns a hast root holding only `div h1 br strong em strike a[href] pre ol ul li blockquote`
 */
export function markdownToBasecampHast(markdown: string, dialect: MarkdownDialect = {}): Root {
  const mdast = dialect.gfm === false ? fromMarkdown(markdown) : fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const hast = toHast(mdast, { handlers: BASECAMP_HANDLERS, unknownHandler: UNKNOWN_HANDLER, allowDangerousHtml: false }) as Root;
  return sanitize(spaceBlocks(hast), BASECAMP_SCHEMA) as Root;
}

/**
 * Convert Markdown to Basecamp rich text HTML (docs/basecamp.md): only the
 * tags Basecamp keeps; everything else is mapped to one of them or escaped, never passed through.
 * Serialized by hast-util-to-html.
 *
 * @param markdown - the Markdown source
 * @param dialect - `{gfm}`: whether GFM syntax is read (default `true`; `false` for the canvas render)
 * @returns the HTML for a comment's `content`
 */
export function markdownToBasecampHtml(markdown: string, dialect: MarkdownDialect = {}): string {
  return toHtml(markdownToBasecampHast(markdown, dialect));
}
