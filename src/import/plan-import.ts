// One piece: one pass over the Markdown tree by one Planner whose steps share its state (the
// open sections, the link definitions, the report of what was flattened; docs/import.md, "The
// mapping"); split, each step would take all of that state.
import type { BlockContent, Code, Definition, FootnoteDefinition, Heading, Html, List, Nodes, Paragraph, Root, RootContent, Table, Yaml } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import type { NodePayload } from '../model/types.js';
import { cleanSource, cleanText } from './clean-text.js';
import { type InlineContext, flattenInline, quote } from './flatten-inline.js';
import { frontMatterItems } from './front-matter-items.js';
import type { Flattening, ImportPlan, PlannedNode } from './import-plan.js';

/** The title a `##`/`###` section gets when its heading has no words (reported). */
export const UNTITLED = '(untitled)';

/**
 * Whether `###` becomes a section inside the open `##` section (docs/schema.md; docs/import.md: sections
 * nest one level), or a root-level section after it. The store takes one level of nesting, so
 * this is the default; `false` remains as an option for callers that want a flat canvas.
 */
export const SECTIONS_NEST = true;

/** Options of {@link planImport}. */
export interface PlanOptions {
  /** `###` as a section inside the open `##` section (default {@link SECTIONS_NEST}). */
  nestSections?: boolean;
}

type Handler<N> = (p: Planner, node: N, quoted: boolean) => void;

/** The mapping's state: the nodes so far and the open `##` and `###` sections. */
class Planner implements InlineContext {
  readonly nodes: PlannedNode[] = [];
  readonly flattened: Flattening[] = [];
  readonly definitions = new Map<string, Definition>();
  /** The open `##` section (index into nodes), if any. */
  h2: number | null = null;
  /** The open `###` section, if any (nested in h2, or at the root when no `##` is open). */
  h3: number | null = null;

  constructor(readonly nestSections: boolean) {}

  report = (line: number, what: string): void => {
    this.flattened.push({ line, what });
  };

  /** Clean the node's strings, drop what the schema refuses as blank, and add it. */
  emit(raw: NodePayload, line: number, kind: string): number | null {
    const c = (s: string) => cleanText(s, line, this.report);
    const blank = (s: string) => s.trim() === '';
    let payload: NodePayload;
    switch (raw.type) {
      case 'text':
      case 'question':
        payload = { ...raw, text: c(raw.text) };
        if (blank(payload.text)) return this.skip(line, kind);
        break;
      case 'section': {
        let title = c(raw.title)
          .replace(/\s*\n\s*/g, ' ')
          .trim();
        if (title === '') {
          this.report(line, `${kind} heading has no words: titled ${UNTITLED}`);
          title = UNTITLED;
        }
        payload = { ...raw, title };
        break;
      }
      case 'list': {
        const items = raw.items.map(c).filter((item) => {
          if (blank(item)) this.report(line, 'empty list item dropped');
          return !blank(item);
        });
        if (items.length === 0) return this.skip(line, kind);
        payload = { ...raw, items };
        break;
      }
      case 'table':
        payload = { ...raw, rows: raw.rows.map((r) => r.map(c)) };
        break;
      case 'link':
        payload = { ...raw, href: c(raw.href).trim(), label: c(raw.label) };
        if (blank(payload.href) || payload.href.includes('\n')) {
          this.report(line, `${kind} without a one-line address skipped`);
          return null;
        }
        if (blank(payload.label)) payload.label = payload.href;
        break;
      case 'figure':
        payload = raw;
        break;
    }
    this.nodes.push({ payload, line, kind, parent: this.h3 ?? this.h2 });
    return this.nodes.length - 1;
  }

  private skip(line: number, kind: string): null {
    this.report(line, `blank ${kind} skipped`);
    return null;
  }

  /** Map one block (docs/import.md); `quoted` inside a blockquote. */
  block(node: RootContent, quoted: boolean): void {
    const handler = HANDLERS[node.type] as Handler<RootContent> | undefined;
    if (handler) handler(this, node, quoted);
    else fallback(this, node);
  }

  /** One nested block as plain text: for list items and footnotes, which hold text only. */
  plain(node: RootContent, where: string): string {
    const line = lineOf(node);
    switch (node.type) {
      case 'paragraph':
        return flattenInline(node.children, this, line).text.trim();
      case 'list':
        return listItems(this, node, 0).join('\n');
      case 'heading':
        this.report(line, `heading inside ${where} kept as text`);
        return flattenInline(node.children, this, line).text.trim();
      case 'code':
        this.report(line, `code block inside ${where} joined into its text`);
        return node.value;
      case 'html':
        this.report(line, `HTML inside ${where} kept as text: ${quote(node.value)}`);
        return node.value;
      case 'blockquote':
        this.report(line, `blockquote inside ${where} flattened into its text`);
        return node.children
          .map((c) => this.plain(c, where))
          .filter((s) => s !== '')
          .join('\n');
      case 'table':
        this.report(line, `table inside ${where} flattened into its text, cells separated by " | "`);
        return node.children.map((r) => r.children.map((cell) => flattenInline(cell.children, this, line).text.trim()).join(' | ')).join('\n');
      case 'thematicBreak':
        this.report(line, `thematic break inside ${where} skipped`);
        return '';
      case 'definition':
        this.report(line, `link reference definition [${node.label ?? node.identifier}] skipped`);
        return '';
      default:
        this.report(line, `${node.type} inside ${where} kept as text`);
        return plainOf(node);
    }
  }
}

function lineOf(node: Nodes): number {
  return node.position?.start.line ?? 1;
}

function plainOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainOf).join('');
  return '';
}

/**
 * The items of a list and of its sub-lists, in order: an item's own blocks joined by line
 * feeds, then its sub-lists. A sub-list item at depth d (1 for the first level of nesting) is
 * prefixed with 2*(d-1) spaces and its own marker (`- ` or `N. `); a task item with `[x] ` or
 * `[ ] `.
 */
function listItems(p: Planner, list: List, depth: number): string[] {
  const out: string[] = [];
  list.children.forEach((item, i) => {
    const marker = list.ordered ? `${(list.start ?? 1) + i}. ` : '- ';
    const prefix = depth === 0 ? '' : `${'  '.repeat(depth - 1)}${marker}`;
    const box = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
    const own = item.children
      .filter((c) => c.type !== 'list')
      .map((c) => p.plain(c, 'a list item'))
      .filter((s) => s.trim() !== '')
      .join('\n');
    const text = `${box}${own}`.trim();
    if (text === '') p.report(lineOf(item), 'empty list item dropped');
    else out.push(`${prefix}${text}`);
    for (const sub of item.children) if (sub.type === 'list') out.push(...listItems(p, sub, depth + 1));
  });
  return out;
}

function heading(p: Planner, node: Heading, quoted: boolean): void {
  const line = lineOf(node);
  const text = flattenInline(node.children, p, line).text;
  const level = `heading ${node.depth}`;
  if (quoted) {
    p.report(line, `${level} inside a blockquote imported as text`);
    p.emit({ type: 'text', text: text.trim() }, line, level);
    return;
  }
  switch (node.depth) {
    case 1:
      p.h2 = null;
      p.h3 = null;
      p.emit({ type: 'text', text: text.trim() }, line, level);
      return;
    case 2:
      p.h2 = null;
      p.h3 = null;
      p.h2 = p.emit({ type: 'section', title: text, children: [] }, line, 'section (##)');
      return;
    case 3: {
      p.h3 = null;
      if (!p.nestSections) {
        p.h2 = null;
        p.report(line, '### made a root-level section (a section inside a section cannot be written yet)');
      } else if (p.h2 === null) p.report(line, '### with no ## above it: made a root-level section');
      p.h3 = p.emit({ type: 'section', title: text, children: [] }, line, 'section (###)');
      return;
    }
    default:
      p.report(line, `${level} imported as text (sections nest one level only)`);
      p.emit({ type: 'text', text: text.trim() }, line, level);
  }
}

function paragraph(p: Planner, node: Paragraph, quoted: boolean): void {
  const line = lineOf(node);
  const kind = quoted ? 'blockquote paragraph' : 'paragraph';
  const parts = node.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const only = parts.length === 1 ? parts[0] : undefined;
  const url = only?.type === 'link' ? only.url : only?.type === 'linkReference' ? p.definitions.get(only.identifier)?.url : undefined;
  if (only && (only.type === 'link' || only.type === 'linkReference') && url !== undefined && url.trim() !== '') {
    // A paragraph that is one bare link or autolink: a link node; its text is the label.
    const label = flattenInline(only.children, p, line).text.trim();
    p.emit({ type: 'link', href: url, label: label === '' ? url : label }, line, 'link');
    return;
  }
  const flat = flattenInline(node.children, p, line, true);
  const text = flat.text.trim();
  if (text !== '') p.emit({ type: 'text', text }, line, kind);
  for (const img of flat.images) {
    if (text !== '') p.report(img.line, `image ${img.href} lifted out of its paragraph into a link node`);
    p.emit({ type: 'link', href: img.href, label: img.label }, img.line, 'image');
  }
  if (text === '' && flat.images.length === 0) p.report(line, `blank ${kind} skipped`);
}

function list(p: Planner, node: List): void {
  const line = lineOf(node);
  const nested = node.children.some((item) => item.children.some((c) => c.type === 'list'));
  if (nested) p.report(line, 'nested list items flattened into one list (depth shown by indentation and marker)');
  if (hasTask(node)) p.report(line, 'task list checkboxes written as [x] and [ ]');
  if (node.ordered && (node.start ?? 1) !== 1) p.report(line, `ordered list starting at ${node.start}: the list numbers from 1`);
  const ordered = node.ordered === true;
  p.emit({ type: 'list', ordered, items: listItems(p, node, 0) }, line, ordered ? 'ordered list' : 'list');
}

function hasTask(node: List): boolean {
  return node.children.some((item) => typeof item.checked === 'boolean' || item.children.some((c) => c.type === 'list' && hasTask(c)));
}

function table(p: Planner, node: Table): void {
  const line = lineOf(node);
  const rows = node.children.map((r) => r.children.map((cell) => flattenInline(cell.children, p, lineOf(cell)).text.trim()));
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width < 2) {
    p.report(line, '1-column table imported as a list (header first)');
    p.emit({ type: 'list', ordered: false, items: rows.map((r) => r[0] ?? '') }, line, 'table');
    return;
  }
  rows.forEach((r, i) => {
    if (r.length < width) {
      p.report(lineOf(node.children[i]!), `table row ${i + 1} padded with ${width - r.length} empty cell(s)`);
      while (r.length < width) r.push('');
    }
  });
  if ((node.align ?? []).some((a) => a !== null && a !== undefined)) p.report(line, 'table column alignment not kept');
  p.emit({ type: 'table', rows }, line, 'table');
}

function code(p: Planner, node: Code): void {
  const line = lineOf(node);
  const kind = node.lang ? `code (${node.lang})` : 'code';
  if (node.lang) p.report(line, `code block language "${node.lang}" kept in the reason only`);
  p.emit({ type: 'text', text: node.value }, line, kind);
}

function html(p: Planner, node: Html): void {
  const line = lineOf(node);
  p.report(line, `HTML kept as text: ${quote(node.value)}`);
  p.emit({ type: 'text', text: node.value }, line, 'html');
}

function yaml(p: Planner, node: Yaml): void {
  const line = lineOf(node);
  const fm = frontMatterItems(node.value, line, p.report);
  if (fm === null) return;
  if ('text' in fm) p.emit({ type: 'text', text: fm.text }, line, 'front matter');
  else p.emit({ type: 'list', ordered: false, items: fm.items }, line, 'front matter');
}

function footnoteDefinition(p: Planner, node: FootnoteDefinition): void {
  const line = lineOf(node);
  const label = node.label ?? node.identifier;
  p.report(line, `footnote [^${label}] imported as text`);
  const body = node.children
    .map((c) => p.plain(c, 'a footnote'))
    .filter((s) => s !== '')
    .join('\n');
  p.emit({ type: 'text', text: `[^${label}]: ${body}` }, line, 'footnote');
}

function fallback(p: Planner, node: RootContent): void {
  const line = lineOf(node);
  p.report(line, `${node.type} imported as text`);
  p.emit({ type: 'text', text: plainOf(node) }, line, node.type);
}

const HANDLERS: Partial<Record<RootContent['type'], Handler<never>>> = {
  yaml: yaml as Handler<never>,
  heading: heading as Handler<never>,
  paragraph: paragraph as Handler<never>,
  list: list as Handler<never>,
  table: table as Handler<never>,
  code: code as Handler<never>,
  html: html as Handler<never>,
  footnoteDefinition: footnoteDefinition as Handler<never>,
  blockquote: ((p: Planner, node: BlockContent & { type: 'blockquote' }) => {
    p.report(lineOf(node), 'blockquote flattened: its blocks imported without the quote');
    for (const c of node.children) p.block(c, true);
  }) as Handler<never>,
  thematicBreak: ((p: Planner, node: RootContent) => p.report(lineOf(node), 'thematic break skipped')) as Handler<never>,
  definition: ((p: Planner, node: Definition) => p.report(lineOf(node), `link reference definition [${node.label ?? node.identifier}] skipped (references to it are resolved)`)) as Handler<never>,
};

/** Parse Markdown with GFM and YAML front matter (the unified parser; never by hand). */
function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });
}

/**
 * Map a Markdown decision record to the nodes of a canvas (docs/import.md
 * owns the mapping). Pure: it parses and maps, and writes nothing.
 *
 * @param markdown - the document (CRLF and CR are read as LF; a leading BOM is dropped)
 * @param options - `nestSections`: `###` inside the open `##` section (default {@link SECTIONS_NEST})
 * @returns the nodes in document order (a section before its children; `parent` indexes the
 *   section) and every flattening, each with its 1-based Markdown line
 */
export function planImport(markdown: string, options: PlanOptions = {}): ImportPlan {
  const p = new Planner(options.nestSections ?? SECTIONS_NEST);
  const tree = parseMarkdown(cleanSource(markdown, p.report));
  const collect = (n: Nodes): void => {
    if (n.type === 'definition' && !p.definitions.has(n.identifier)) p.definitions.set(n.identifier, n);
    if ('children' in n) for (const c of n.children as Nodes[]) collect(c);
  };
  collect(tree);
  for (const node of tree.children) p.block(node, false);
  p.flattened.sort((a, b) => a.line - b.line);
  return { nodes: p.nodes, flattened: p.flattened };
}
