// Reading a rendered page back for the tests: parsed with hast-util-from-html, never with regexes.
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';

/** Every element of a tree, in document order, with its ancestors. */
export function elements(tree: Root | Element): Array<{ el: Element; ancestors: Element[] }> {
  const out: Array<{ el: Element; ancestors: Element[] }> = [];
  const walk = (node: Root | Element, ancestors: Element[]): void => {
    for (const c of node.children) {
      if (c.type !== 'element') continue;
      out.push({ el: c, ancestors });
      walk(c, [...ancestors, c]);
      if (c.content) walk(c.content as unknown as Root, [...ancestors, c]);
    }
  };
  walk(tree, []);
  return out;
}

/** The text of an element. */
export function textOf(node: Root | Element): string {
  return node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? textOf(c) : '')).join('');
}

/** The class list of an element. */
export function classes(el: Element): string[] {
  const c = el.properties.className;
  return Array.isArray(c) ? c.map(String) : [];
}

/** Parse a page. */
export function parsePage(html: string): Root {
  return fromHtml(html);
}

/** The element with this id, or undefined. */
export function byId(tree: Root, id: string): Element | undefined {
  return elements(tree).find((e) => e.el.properties.id === id)?.el;
}
