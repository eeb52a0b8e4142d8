// Schema v2's checks for one node element and its content (docs/schema.md). One piece of about
// 400 lines: the seven converters share the element checks above them (attributes, ids, leaf
// text, container children) and nothing outside parsing uses those.
import type { Element as XastElement, ElementContent } from 'xast';
import { CanvasError } from './canvas-error.js';
import { layoutJson } from './excalidraw/layout-json.js';
import { scanJson } from './excalidraw/scan-json.js';
import { NODE_ID, SVG_NS, VERSION } from './patterns.js';
import { findBadCharacter } from './text-characters.js';
import { type CanvasNode, type FigureKind, type FigureNode, type LinkNode, type ListNode, NODE_TYPES, type NodeType, type QuestionNode, type SectionNode, type TableNode, type TextNode } from './types.js';

/** The exact attribute set of each element, in canonical order (`docs/schema.md`). */
export const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  canvas: ['ledger', 'schema'],
  section: ['id', 'v', 'title'],
  text: ['id', 'v'],
  list: ['id', 'v', 'ordered'],
  item: [],
  table: ['id', 'v'],
  row: [],
  cell: [],
  figure: ['id', 'v', 'kind', 'caption'],
  link: ['id', 'v', 'href'],
  question: ['id', 'v', 'answered'],
};

const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  canvas: ['ledger', 'schema'],
  section: ['id', 'v', 'title'],
  text: ['id', 'v'],
  list: ['id', 'v'],
  table: ['id', 'v'],
  figure: ['id', 'v', 'kind'],
  link: ['id', 'v', 'href'],
  question: ['id', 'v'],
};

/** How an element is being read: as part of a stored canvas, or as a writer's payload. */
export interface ConvertContext {
  /** `canvas`: ids and versions required. `payload`: the top element carries neither. */
  mode: 'canvas' | 'payload';
  /** Ids seen so far in this document, for uniqueness. */
  seen: Set<string>;
}

/** Raise a SCHEMA refusal at a path, naming the rule and the fix. */
export function schemaError(path: string, rule: string, fix: string, extra: Record<string, unknown> = {}): CanvasError {
  return new CanvasError('SCHEMA', `${path}: ${rule}`, fix, { path, rule, ...extra });
}

/**
 * The paths of an element's element children, in one pass: `text[@id='a1']` when the child has a
 * node id, else `item[3]` (its position among same-named siblings, from 1). Computed once per
 * parent so a list of many items is checked in linear time.
 */
export function childPaths(parentPath: string, children: readonly ElementContent[]): Map<XastElement, string> {
  const out = new Map<XastElement, string>();
  const counts = new Map<string, number>();
  for (const c of children) {
    if (c.type !== 'element') continue;
    const n = (counts.get(c.name) ?? 0) + 1;
    counts.set(c.name, n);
    const id = c.attributes.id;
    out.set(c, typeof id === 'string' && NODE_ID.test(id) ? `${parentPath}/${c.name}[@id='${id}']` : `${parentPath}/${c.name}[${n}]`);
  }
  return out;
}

/** Refuse a character text may not hold (docs/schema.md, "Characters"). */
function checkControl(value: string, path: string, where: string): void {
  const bad = findBadCharacter(value, 'text');
  if (!bad) return;
  if (bad.what === 'a lone surrogate') throw schemaError(path, `${where} holds a lone surrogate (not valid Unicode text)`, 'send well-formed text');
  throw schemaError(path, `${where} holds the character ${bad.codePoint}, which a canvas cannot hold; of the control characters only tab and line feed are allowed`, 'remove the character', {
    codePoint: bad.codePoint,
  });
}

/** Blank: nothing but XML white space (space, tab, line feed, carriage return). */
function isBlank(s: string): boolean {
  return /^[ \t\n\r]*$/.test(s);
}

/** Check attribute names against the element's exact set, and control characters in values. */
function checkAttributes(el: XastElement, path: string, payloadTop = false): void {
  const allowed = ATTRIBUTES[el.name] ?? [];
  for (const [name, value] of Object.entries(el.attributes)) {
    if (!allowed.includes(name)) {
      const list = allowed.length > 0 ? allowed.join(', ') : 'none';
      throw schemaError(path, `attribute "${name}" is not allowed on <${el.name}> (allowed: ${list})`, `remove ${name}="..."; the vocabulary is closed`, { attribute: name });
    }
    if (typeof value === 'string') checkControl(value, path, `attribute ${name}`);
  }
  for (const name of REQUIRED[el.name] ?? []) {
    if (payloadTop && (name === 'id' || name === 'v')) continue;
    if (typeof el.attributes[name] !== 'string') {
      throw schemaError(path, `<${el.name}> needs the attribute "${name}"`, `add ${name}="..."`, { attribute: name });
    }
  }
}

/** The character data of a leaf element; refuses element children (no mixed content). */
function leafText(el: XastElement, path: string): string {
  let out = '';
  for (const c of el.children) {
    if (c.type === 'text' || c.type === 'cdata') {
      out += c.value;
    } else if (c.type === 'element') {
      throw schemaError(childPaths(path, el.children).get(c)!, `<${el.name}> holds character data only, not <${c.name}>`, `escape the markup as &lt;${c.name}&gt; or remove it`);
    }
  }
  checkControl(out, path, 'the character data');
  return out;
}

/** The element children of a container; refuses non-whitespace character data (mixed content). */
function containerChildren(el: XastElement, path: string): XastElement[] {
  const out: XastElement[] = [];
  for (const c of el.children) {
    if (c.type === 'element') {
      out.push(c);
    } else if ((c.type === 'text' || c.type === 'cdata') && !isBlank(c.value)) {
      const snippet = c.value.trim().slice(0, 40);
      throw schemaError(path, `<${el.name}> holds elements only, but has the text "${snippet}" (no mixed content)`, `put the words in a <text> node, or remove them`);
    }
  }
  return out;
}

function readId(el: XastElement, path: string, ctx: ConvertContext, top: boolean): { id: string; v: number } {
  if (ctx.mode === 'payload' && top) {
    return { id: '', v: 0 };
  }
  const id = el.attributes.id ?? '';
  const v = el.attributes.v ?? '';
  if (!NODE_ID.test(id)) {
    throw schemaError(path, `id "${id}" does not match ^[a-z][a-z0-9]{1,11}$`, 'use the id the store minted');
  }
  if (!VERSION.test(v)) {
    throw schemaError(path, `v "${v}" is not a positive integer`, 'use the v the store wrote');
  }
  if (ctx.seen.has(id)) {
    throw schemaError(path, `id "${id}" appears twice`, 'every node id is unique within a canvas', { id });
  }
  ctx.seen.add(id);
  return { id, v: Number(v) };
}

/** Where an element is converted, and what every node's conversion has read from it already. */
interface Place {
  /** The element's path, for example `/canvas/section[@id='s1']/text[2]`. */
  path: string;
  /** 1 for a child of the root, 2 inside a section, 3 inside a nested section. */
  depth: number;
  ctx: ConvertContext;
  /** True for the payload's own element (which carries no id and no v). */
  top: boolean;
  id: string;
  v: number;
  /** The element's attributes (checked against its exact set). */
  a: Readonly<Record<string, string | undefined>>;
}

/** Convert one element whose name is the node type `T`. */
type Converter<T extends NodeType> = (el: XastElement, at: Place) => Extract<CanvasNode, { type: T }>;

/** A section: a one-line title, one level of nesting, born empty as a payload. */
function convertSection(el: XastElement, { path, depth, ctx, top, id, v, a }: Place): SectionNode {
  const title = a.title ?? '';
  if (isBlank(title) || title.includes('\n')) {
    throw schemaError(path, 'a section title is one line and not blank', 'give the section a one-line title');
  }
  if (depth > 2) {
    throw new CanvasError('NESTING', `${path}: a section inside a section holds no section (sections nest one level)`, 'put this section at the root or in a root-level section', { path });
  }
  const kids = containerChildren(el, path);
  if (ctx.mode === 'payload' && top && kids.length > 0) {
    throw new CanvasError(
      'PAYLOAD_CHILDREN',
      `${path}: a section payload has ${kids.length} child element(s); a section is born empty and its title is replaced alone`,
      'send <section title="..."></section>, then insert each child with its own insert --into',
      { path, children: kids.length },
    );
  }
  const paths = childPaths(path, el.children);
  const children = kids.map((k) => convertElement(k, paths.get(k)!, depth + 1, ctx));
  return { type: 'section', id, v, title, children };
}

/** A text: its character data, not blank. */
function convertText(el: XastElement, { path, id, v }: Place): TextNode {
  const text = leafText(el, path);
  if (isBlank(text)) throw schemaError(path, '<text> must not be blank', 'write the paragraph, or remove the node');
  return { type: 'text', id, v, text };
}

/** A question: its character data, not blank; `answered` is "true" or absent. */
function convertQuestion(el: XastElement, { path, id, v, a }: Place): QuestionNode {
  const answered = a.answered;
  if (answered !== undefined && answered !== 'true') {
    throw schemaError(path, `answered="${answered}": the only value is "true"`, 'leave answered out for an open question');
  }
  const text = leafText(el, path);
  if (isBlank(text)) throw schemaError(path, '<question> must not be blank', 'write the question');
  return { type: 'question', id, v, answered: answered === 'true', text };
}

/** A link: a one-line href and a label, neither blank. */
function convertLink(el: XastElement, { path, id, v, a }: Place): LinkNode {
  const href = a.href ?? '';
  if (isBlank(href) || href.includes('\n')) {
    throw schemaError(path, 'href is one line and not blank', 'give the link its address');
  }
  const label = leafText(el, path);
  if (isBlank(label)) throw schemaError(path, '<link> needs a label as its character data', 'write what the link points at');
  return { type: 'link', id, v, href, label };
}

/** A list: one or more non-blank items; `ordered` is "true" or absent. */
function convertList(el: XastElement, { path, id, v, a }: Place): ListNode {
  const ordered = a.ordered;
  if (ordered !== undefined && ordered !== 'true') {
    throw schemaError(path, `ordered="${ordered}": the only value is "true"`, 'leave ordered out for a bullet list');
  }
  const kids = containerChildren(el, path);
  if (kids.length === 0) throw schemaError(path, '<list> holds one or more <item>', 'add <item>...</item>');
  const paths = childPaths(path, el.children);
  const items = kids.map((k) => {
    const p = paths.get(k)!;
    if (k.name !== 'item') {
      throw schemaError(p, `<list> holds <item> only, not <${k.name}>`, 'wrap the words in <item>');
    }
    checkAttributes(k, p);
    const text = leafText(k, p);
    if (isBlank(text)) throw schemaError(p, '<item> must not be blank', 'write the item, or drop it');
    return text;
  });
  return { type: 'list', id, v, ordered: ordered === 'true', items };
}

/** A table: rows of at least 2 cells, every row as wide as the header. */
function convertTable(el: XastElement, { path, id, v }: Place): TableNode {
  const kids = containerChildren(el, path);
  if (kids.length === 0) throw schemaError(path, '<table> holds one or more <row>', 'add <row><cell>..</cell><cell>..</cell></row>');
  const rowPaths = childPaths(path, el.children);
  const rows = kids.map((k) => {
    const p = rowPaths.get(k)!;
    if (k.name !== 'row') throw schemaError(p, `<table> holds <row> only, not <${k.name}>`, 'wrap the cells in <row>');
    checkAttributes(k, p);
    const cellPaths = childPaths(p, k.children);
    const cells = containerChildren(k, p).map((c) => {
      const cp = cellPaths.get(c)!;
      if (c.name !== 'cell') throw schemaError(cp, `<row> holds <cell> only, not <${c.name}>`, 'wrap the value in <cell>');
      checkAttributes(c, cp);
      return leafText(c, cp);
    });
    if (cells.length < 2) {
      throw schemaError(p, `a row has at least 2 cells, this one has ${cells.length}`, 'use a <list> or <text> for one column');
    }
    return cells;
  });
  const width = rows[0]!.length;
  rows.forEach((r, i) => {
    if (r.length !== width) {
      throw schemaError(
        `${path}/row[${i + 1}]`,
        `every row has the same cell count: the header has ${width}, this row has ${r.length}`,
        `give row ${i + 1} exactly ${width} cells (an empty <cell></cell> is allowed)`,
      );
    }
  });
  return { type: 'table', id, v, rows };
}

/** A figure: its kind, a one-line caption, and its source text or exactly one `svg` element. */
function convertFigure(el: XastElement, { path, ctx, top, id, v, a }: Place): FigureNode {
  const kind = a.kind as FigureKind;
  if (kind !== 'diagram' && kind !== 'mermaid' && kind !== 'svg' && kind !== 'excalidraw') {
    throw schemaError(path, `kind="${a.kind}": the kinds are diagram, mermaid, svg and excalidraw`, 'set kind to diagram, mermaid, svg or excalidraw');
  }
  const caption = a.caption;
  if (caption !== undefined && (isBlank(caption) || caption.includes('\n'))) {
    throw schemaError(path, 'a caption is one line and not blank', 'shorten the caption to one line, or leave it out');
  }
  const base = { type: 'figure' as const, id, v, kind, ...(caption !== undefined ? { caption } : {}) };
  if (kind === 'svg') {
    const kids = containerChildren(el, path);
    const first = kids[0];
    if (kids.length !== 1 || !first || first.name !== 'svg') {
      throw schemaError(
        path,
        `a figure of kind svg holds exactly one <svg> element, found ${kids.map((k) => `<${k.name}>`).join(', ') || 'none'}`,
        'put one <svg xmlns="http://www.w3.org/2000/svg"> element inside the figure',
      );
    }
    const svgPath = `${path}/svg`;
    if (first.attributes.xmlns !== SVG_NS) {
      throw schemaError(svgPath, `<svg> is in the SVG namespace: xmlns="${SVG_NS}"`, `add xmlns="${SVG_NS}" to <svg>`);
    }
    return { ...base, source: '', svg: normalizeSvg(first, svgPath) };
  }
  const source = leafText(el, path);
  if (isBlank(source)) throw schemaError(path, `a ${kind} figure needs its source text`, 'write the source inside <figure>');
  // A writer's scene is laid out in canonical whitespace (docs/excalidraw.md, "The stored form");
  // a stored one is read as it is, and the write-time check refuses one that is not canonical.
  if (kind === 'excalidraw' && ctx.mode === 'payload' && top) return { ...base, source: layoutJson(scanJson(source)) };
  return { ...base, source };
}

/**
 * One converter per node type, keyed by the element's name: the compiler refuses a table that
 * lacks one, as it does for the renderers' tables (`docs/projections.md`, "How the renderers are
 * built").
 */
const CONVERTERS: { readonly [T in NodeType]: Converter<T> } = {
  section: convertSection,
  text: convertText,
  list: convertList,
  table: convertTable,
  figure: convertFigure,
  link: convertLink,
  question: convertQuestion,
};

/**
 * Convert one node element into a typed node, checking schema v2 (`docs/schema.md`) by the
 * converter of its type.
 *
 * @param el - a xast element named like a node type
 * @param path - the element's path, for example `/canvas/section[@id='s1']/text[2]`
 * @param depth - 1 for a child of the root, 2 inside a section, 3 inside a nested section
 * @param ctx - mode and the ids seen so far
 * @param top - true for the payload's own element (which carries no id and no v)
 * @returns the typed node (in payload mode the top node has `id` "" and `v` 0)
 * @throws CanvasError `SCHEMA` naming the path, the rule and the fix; `NESTING` for a section
 *   inside a section; `PAYLOAD_CHILDREN` for a payload section with children
 */
export function convertElement(el: XastElement, path: string, depth: number, ctx: ConvertContext, top = false): CanvasNode {
  if (!Object.hasOwn(CONVERTERS, el.name)) {
    const where = ['item', 'row', 'cell', 'canvas'].includes(el.name) ? `<${el.name}> cannot stand here` : `unknown element <${el.name}>`;
    throw schemaError(path, `${where}; a node is one of ${NODE_TYPES.join(', ')}`, el.name === 'canvas' ? 'send one node, never a whole canvas' : 'use one of the seven node elements', { element: el.name });
  }
  checkAttributes(el, path, ctx.mode === 'payload' && top);
  const { id, v } = readId(el, path, ctx, top);
  const a: Record<string, string | undefined> = {};
  for (const [k, value] of Object.entries(el.attributes)) if (typeof value === 'string') a[k] = value;
  return (CONVERTERS[el.name as NodeType] as Converter<NodeType>)(el, { path, depth, ctx, top, id, v, a });
}

/**
 * Normalize an SVG subtree: drop whitespace-only text between elements of an element that has
 * element children and no other text; keep everything else verbatim. Refuses control characters
 * and prefixed element names (only the SVG namespace is allowed inside a figure).
 */
function normalizeSvg(el: XastElement, path: string): XastElement {
  if (el.name.includes(':')) {
    throw schemaError(path, `<${el.name}>: elements inside an svg figure are written without a prefix, in the default SVG namespace`, `write <${el.name.slice(el.name.indexOf(':') + 1)}> instead`);
  }
  for (const [k, value] of Object.entries(el.attributes)) {
    if (typeof value === 'string') checkControl(value, path, `attribute ${k}`);
  }
  const hasElement = el.children.some((c) => c.type === 'element');
  const mixed = hasElement && el.children.some((c) => (c.type === 'text' || c.type === 'cdata') && !isBlank(c.value));
  const children: ElementContent[] = [];
  const paths = childPaths(path, el.children);
  for (const c of el.children) {
    if (c.type === 'element') {
      children.push(normalizeSvg(c, paths.get(c)!));
    } else if (c.type === 'text' || c.type === 'cdata') {
      if (hasElement && !mixed) continue;
      checkControl(c.value, path, 'the character data');
      const prev = children[children.length - 1];
      if (prev && prev.type === 'text') prev.value += c.value;
      else children.push({ type: 'text', value: c.value });
    }
  }
  const attributes: Record<string, string> = {};
  for (const [k, value] of Object.entries(el.attributes)) {
    if (typeof value === 'string') attributes[k] = value;
  }
  return { type: 'element', name: el.name, attributes, children };
}
