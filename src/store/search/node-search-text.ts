import type { CanvasNode } from '../../model/types.js';

/**
 * The text of a node that search indexes and quotes (docs/search.md, "What is indexed"): a
 * section's title, a text's or question's character data, a list's items and a table's cells one
 * per line (cells joined by ` | `), a link's label and its address, a figure's caption with the
 * source of a `diagram` or `mermaid` figure (an `svg` or `excalidraw` figure by its caption only:
 * its markup is not prose).
 *
 * @param node - one node (a section without its children)
 * @returns the text, possibly empty (a figure without a caption)
 */
export function nodeSearchText(node: CanvasNode): string {
  switch (node.type) {
    case 'section':
      return node.title;
    case 'text':
    case 'question':
      return node.text;
    case 'list':
      return node.items.join('\n');
    case 'table':
      return node.rows.map((r) => r.join(' | ')).join('\n');
    case 'link':
      return `${node.label}\n${node.href}`;
    case 'figure': {
      const caption = node.caption ?? '';
      if (node.kind !== 'diagram' && node.kind !== 'mermaid') return caption;
      return caption === '' ? node.source : `${caption}\n${node.source}`;
    }
  }
}
