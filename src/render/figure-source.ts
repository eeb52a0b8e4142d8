import { serializeNode } from '../model/serialize-node.js';
import type { FigureNode } from '../model/types.js';

/**
 * The source text of a figure, as the comment fences it, the prompt shows it, and the page shows it
 * when a figure cannot be drawn: the diagram or Mermaid source verbatim, or for `svg` its markup in
 * canonical form (docs/canonical.md).
 *
 * @param figure - the figure node
 * @returns the source text, without a final line feed
 */
export function figureSource(figure: FigureNode): string {
  if (figure.kind !== 'svg' || !figure.svg) return figure.source;
  const { caption: _caption, ...bare } = figure;
  const lines = serializeNode(bare, { depth: 0 }).split('\n');
  // Drop the <figure> line, the </figure> line and the final empty string; un-indent one step.
  return lines
    .slice(1, -2)
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n');
}
