import type { FigureKind } from '../model/types.js';

const KIND_LABEL: Readonly<Record<FigureKind, string>> = {
  diagram: 'Diagram',
  mermaid: 'Mermaid diagram',
  svg: 'Picture (SVG)',
  excalidraw: 'Excalidraw sketch',
};

/**
 * The words a projection uses to name a figure's kind.
 *
 * @param kind - diagram, mermaid, svg or excalidraw
 * @returns a short label such as "Mermaid diagram"
 */
export function figureLabel(kind: FigureKind): string {
  return KIND_LABEL[kind];
}
