import type { Element, ElementContent, Properties } from 'hast';

/**
 * A hast element built directly, for the parts every node of a page repeats (its id tag, its
 * reasons): the element hastscript's `h(tagName, properties, children)` makes, without parsing a
 * selector and looking up every property by name on each call, which was a sixth of rendering a
 * page (docs/performance.md, "The site build's floor").
 *
 * @param tagName - a lower-case HTML tag name
 * @param properties - hast properties as `h` leaves them: `className` an array, names camel-cased
 * @param children - elements, and strings for text nodes
 * @returns the element
 */
export function element(tagName: string, properties: Properties, children: ReadonlyArray<ElementContent | string>): Element {
  return { type: 'element', tagName, properties, children: children.map((c) => (typeof c === 'string' ? { type: 'text', value: c } : c)) };
}
