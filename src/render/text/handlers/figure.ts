import type { FigureNode } from '../../../model/types.js';
import { figureSource } from '../../figure-source.js';
import { summarizeScene } from '../../figures/excalidraw-summary.js';
import { CanvasError } from '../../../model/canvas-error.js';
import { crossingLine } from '../crossing-line.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/** What the prompt shows of a scene: its texts in reading order and its connections, not its JSON. */
function sceneLines(source: string): { head: string; lines: string[] } {
  const summary = summarizeScene(source);
  if (summary instanceof CanvasError) return { head: ` a scene that cannot be read (${summary.code}): ${summary.message}`, lines: [] };
  const count = `a sketch of ${summary.elements} element${summary.elements === 1 ? '' : 's'}`;
  const lines = [...summary.texts, ...(summary.connections.length > 0 ? ['connections:', ...summary.connections.map((c) => `  ${c}`)] : [])];
  return { head: summary.texts.length > 0 ? ` ${count}; its texts in reading order:` : ` ${count}, with no text`, lines };
}

/**
 * A figure in the prompt: `[id] figure (kind), caption “...”:` and its source indented below; an
 * Excalidraw sketch shows its texts in reading order instead (docs/excalidraw.md, "In the comment
 * and the prompt").
 *
 * @param node - the figure node
 * @param ctx - the prompt context
 * @returns the lines
 */
export function figure(node: FigureNode, ctx: TextContext): string[] {
  const pad = '  '.repeat(ctx.depth);
  const scene = node.kind === 'excalidraw' ? sceneLines(node.source) : null;
  return [
    `${pad}[${node.id}] figure (${node.kind})${node.caption ? `, caption “${isolateBidi(node.caption)}”` : ''}:${scene?.head ?? ''}`,
    ...crossingLine(node.id, ctx),
    ...(scene ? scene.lines : isolateBidi(figureSource(node)).split('\n')).map((l) => `${pad}    ${scene ? isolateBidi(l) : l}`),
  ];
}
