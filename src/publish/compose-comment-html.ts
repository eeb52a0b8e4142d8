import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { spacer, text } from './handlers/build.js';
import { markdownToBasecampHast } from './markdown-to-basecamp.js';

/**
 * Build the one comment's HTML: the ledger row's own Markdown first, then the canvas's comment
 * Markdown after an empty line (docs/projections.md "The comment"). Each part is converted on
 * its own, so neither can change how the other parses (an unclosed fence in the row cannot swallow
 * the canvas), and the row's part is byte for byte what `markdownToBasecampHtml` gives for the row
 * alone. The row is read as GFM (as the Basecamp CLI reads it today: tables, strikethrough); the
 * canvas render as the plain CommonMark it is written in.
 *
 * @param rowBody - the row's own Markdown (its status blocks)
 * @param canvasMarkdown - the canvas comment render, or `null` when the task has no canvas
 * @returns the HTML for the comment's `content`
 */
export function composeCommentHtml(rowBody: string, canvasMarkdown: string | null): string {
  const row = markdownToBasecampHast(rowBody);
  if (canvasMarkdown === null) return toHtml(row);
  const canvas = markdownToBasecampHast(canvasMarkdown, { gfm: false });
  const separator = row.children.length > 0 && canvas.children.length > 0 ? [text('\n'), spacer(), text('\n')] : [];
  const both: Root = { type: 'root', children: [...row.children, ...separator, ...canvas.children] };
  return toHtml(both);
}
