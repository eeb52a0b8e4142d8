import type { Element, ElementContent, Text } from 'hast';

/** A hast element with the given children and properties (no data, no position). */
export function element(tagName: string, children: ElementContent[] = [], properties: Element['properties'] = {}): Element {
  return { type: 'element', tagName, properties, children };
}

/** A hast text node. */
export function text(value: string): Text {
  return { type: 'text', value };
}

/**
 * Text with its line endings as `<br>` (soft line breaks show as line breaks in Basecamp, as the
 * official Basecamp CLI renders them); spaces and tabs around each line ending are dropped, as
 * Markdown does.
 */
export function linesToPhrasing(value: string): ElementContent[] {
  const lines = value.split(/[ \t]*\r?\n[ \t]*/);
  const out: ElementContent[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push(element('br'));
    if (line !== '') out.push(text(line));
  });
  return out;
}

/** The spacer between two blocks: Basecamp's editor gives blocks no margin, so a gap is an empty line. */
export function spacer(): Element {
  return element('div', [element('br')]);
}

/** Blocks that belong with the block after them (a table's header line): no spacer between. */
export const KEEP_WITH_NEXT = new WeakSet<Element>();
