import type { SectionNode } from '../../../model/types.js';
import { crossingLine } from '../crossing-line.js';
import type { TextContext } from '../text-context.js';
import { isolateBidi } from '../../isolate-bidi.js';

/**
 * A section in the prompt: `[id] section "title"`, then its children indented.
 *
 * @param node - the section
 * @param ctx - the prompt context
 * @returns the lines
 */
export function section(node: SectionNode, ctx: TextContext): string[] {
  const children = ctx.renderChildren(node.children, ctx.depth + 1);
  return [`${'  '.repeat(ctx.depth)}[${node.id}] section “${isolateBidi(node.title)}”${children.length === 0 ? ' (empty)' : ''}`, ...crossingLine(node.id, ctx), ...children];
}
