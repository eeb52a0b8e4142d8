import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

/** Every element below `tree` (not `tree` itself) that passes `test`, in document order. */
export function elementsWhere(tree: Element | Root, test: (e: Element) => boolean): Element[] {
  const out: Element[] = [];
  visit(tree, 'element', (e) => {
    if (e !== tree && test(e)) out.push(e);
  });
  return out;
}
