import type { Element as XastElement, ElementContent } from 'xast';
import { escapeAttribute, escapeText } from './escape-xml.js';
import type { CanvasNode, NodePayload } from './types.js';

/** Options of {@link serializeNode}. */
export interface SerializeNodeOptions {
  /** Indentation depth in steps of two spaces (0 for a fragment on its own). */
  depth?: number;
  /** For a section: write it childless (its children are nodes of their own). */
  shallow?: boolean;
  /** Leave out `id` and `v` (a payload). */
  payload?: boolean;
}

function attrs(pairs: ReadonlyArray<readonly [string, string | undefined]>): string {
  let out = '';
  for (const [k, v] of pairs) {
    if (v !== undefined) out += ` ${k}="${escapeAttribute(v)}"`;
  }
  return out;
}

function line(depth: number, s: string): string {
  return `${'  '.repeat(depth)}${s}\n`;
}

/** Serialize an SVG element in canonical form (docs/canonical.md, "SVG figures"). */
function svgElement(el: XastElement, depth: number): string {
  const open = `<${el.name}${attrs(Object.entries(el.attributes).map(([k, v]) => [k, v ?? undefined] as const))}>`;
  const close = `</${el.name}>`;
  const hasElement = el.children.some((c) => c.type === 'element');
  const hasText = el.children.some((c) => c.type === 'text' && c.value.trim() !== '');
  if (!hasElement || hasText) {
    return line(depth, open + el.children.map(inline).join('') + close);
  }
  let out = line(depth, open);
  for (const c of el.children) {
    if (c.type === 'element') out += svgElement(c, depth + 1);
  }
  return out + line(depth, close);
}

function inline(c: ElementContent): string {
  if (c.type === 'text' || c.type === 'cdata') return escapeText(c.value);
  if (c.type === 'element') {
    const open = `<${c.name}${attrs(Object.entries(c.attributes).map(([k, v]) => [k, v ?? undefined] as const))}>`;
    return open + c.children.map(inline).join('') + `</${c.name}>`;
  }
  return '';
}

/**
 * Serialize one node in canonical form (docs/schema.md, docs/canonical.md): attributes in the
 * order of the schema table, character data inline and verbatim, minimal escaping, two-space
 * indentation, one final newline.
 *
 * @param node - the node (or a payload, with `payload: true`)
 * @param options - depth, shallow (a section without its children), payload (no id and v)
 * @returns the XML text, ending in a line feed
 */
export function serializeNode(node: CanvasNode | NodePayload, options: SerializeNodeOptions = {}): string {
  const depth = options.depth ?? 0;
  const idv: Array<readonly [string, string | undefined]> =
    options.payload || !('id' in node)
      ? []
      : [
          ['id', node.id],
          ['v', String(node.v)],
        ];
  switch (node.type) {
    case 'section': {
      const open = `<section${attrs([...idv, ['title', node.title]])}>`;
      if (options.shallow || node.children.length === 0) return line(depth, `${open}</section>`);
      let out = line(depth, open);
      for (const c of node.children) out += serializeNode(c, { ...options, depth: depth + 1 });
      return out + line(depth, '</section>');
    }
    case 'text':
      return line(depth, `<text${attrs(idv)}>${escapeText(node.text)}</text>`);
    case 'question':
      return line(depth, `<question${attrs([...idv, ['answered', node.answered ? 'true' : undefined]])}>${escapeText(node.text)}</question>`);
    case 'link':
      return line(depth, `<link${attrs([...idv, ['href', node.href]])}>${escapeText(node.label)}</link>`);
    case 'list': {
      let out = line(depth, `<list${attrs([...idv, ['ordered', node.ordered ? 'true' : undefined]])}>`);
      for (const item of node.items) out += line(depth + 1, `<item>${escapeText(item)}</item>`);
      return out + line(depth, '</list>');
    }
    case 'table': {
      let out = line(depth, `<table${attrs(idv)}>`);
      for (const row of node.rows) {
        out += line(depth + 1, '<row>');
        for (const cell of row) out += line(depth + 2, `<cell>${escapeText(cell)}</cell>`);
        out += line(depth + 1, '</row>');
      }
      return out + line(depth, '</table>');
    }
    case 'figure': {
      const open = `<figure${attrs([...idv, ['kind', node.kind], ['caption', node.caption]])}>`;
      if (node.kind === 'svg' && node.svg) {
        return line(depth, open) + svgElement(node.svg, depth + 1) + line(depth, '</figure>');
      }
      return line(depth, `${open}${escapeText(node.source)}</figure>`);
    }
  }
}
