/**
 * The canvas tree (schema v2, `docs/schema.md`).
 *
 * A canvas is a root holding nodes. A node is a `section` (the only container, one level of
 * nesting) or one of six blocks. Every node has an `id` (`^[a-z][a-z0-9]{1,11}$`) and a version
 * `v` (a positive integer that equals the number of commits naming the node).
 */
import type { Element as XastElement } from 'xast';

/** The seven node types of schema v2, in the order of the table in `docs/schema.md`: written once here. */
export const NODE_TYPES = ['section', 'text', 'list', 'table', 'figure', 'link', 'question'] as const;

/** A node type: one of {@link NODE_TYPES}. */
export type NodeType = (typeof NODE_TYPES)[number];

/** The four figure kinds (`docs/schema.md`; drawn as `docs/projections.md`, "The page", says). */
export type FigureKind = 'diagram' | 'mermaid' | 'svg' | 'excalidraw';

/** A `section`: the only container; holds nodes, a section inside a section holds no section. */
export interface SectionNode {
  type: 'section';
  id: string;
  v: number;
  /** One line, not blank. */
  title: string;
  children: CanvasNode[];
}

/** A `text`: a paragraph of character data, not blank, kept verbatim. */
export interface TextNode {
  type: 'text';
  id: string;
  v: number;
  text: string;
}

/** A `list` of one or more `item`s (character data each). */
export interface ListNode {
  type: 'list';
  id: string;
  v: number;
  ordered: boolean;
  items: string[];
}

/** A `table`: rows of cells; the first row is the header; every row has the same count (>= 2). */
export interface TableNode {
  type: 'table';
  id: string;
  v: number;
  rows: string[][];
}

/** A `figure`: diagram or Mermaid source text, an Excalidraw scene's JSON text, or exactly one SVG element. */
export interface FigureNode {
  type: 'figure';
  id: string;
  v: number;
  kind: FigureKind;
  caption?: string;
  /**
   * Source text for `diagram` and `mermaid`; for `excalidraw` the scene's JSON in canonical
   * whitespace (`docs/excalidraw.md`, "The stored form"); empty for `svg`.
   */
  source: string;
  /** The one `svg` element (SVG namespace) for `svg`, whitespace between elements removed. */
  svg?: XastElement;
}

/** A `link`: a pointer out; `href` is kept as written, the label is the character data. */
export interface LinkNode {
  type: 'link';
  id: string;
  v: number;
  href: string;
  label: string;
}

/** A `question`: something open, or answered when `answered` is true. */
export interface QuestionNode {
  type: 'question';
  id: string;
  v: number;
  answered: boolean;
  text: string;
}

/** Any node of the tree. */
export type CanvasNode = SectionNode | TextNode | ListNode | TableNode | FigureNode | LinkNode | QuestionNode;

/** The root element: `<canvas ledger=".." schema="2">`. */
export interface Canvas {
  ledger: string;
  schema: '2';
  children: CanvasNode[];
}

/** A node as a writer hands it in: no `id`, no `v` (the store mints and counts them). */
export type NodePayload = CanvasNode extends infer N ? (N extends CanvasNode ? Omit<N, 'id' | 'v'> : never) : never;
