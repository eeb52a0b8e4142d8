/**
 * The syntax tree of a Canvas Diagram 1 source (docs/diagram.md). Every list
 * is in source order (nodes in order of first appearance), so a drawing of it is deterministic.
 */

/** A place in the source: 1-based line and 1-based column, counted in characters (code points). */
export interface DiagramPosition {
  line: number;
  column: number;
}

/** The layout direction: `down` (ranks top to bottom, the default) or `right` (left to right). */
export type DiagramDirection = 'down' | 'right';

/** A node: declared by `node ID "label"`, or by its first use in an edge or a group. */
export interface DiagramNode {
  id: string;
  /** The label to draw; the id itself when no `node` statement gave one. */
  label: string;
  /** True when a `node` statement declared it; false when an edge or group named it first. */
  declared: boolean;
  /** Where the `node` statement stands, or where the node was first named. */
  position: DiagramPosition;
}

/** One hop of an edge statement: `A -> B` (directed) or `A -- B` (undirected), maybe labelled. */
export interface DiagramEdge {
  from: string;
  to: string;
  /** True for `->` (drawn with an arrowhead), false for `--`. */
  directed: boolean;
  /** The label after the hop's target, or null. */
  label: string | null;
  /** Where the hop's arrow stands. */
  position: DiagramPosition;
}

/** A group: a labelled box around its member nodes. Groups do not nest; a node is in one group. */
export interface DiagramGroup {
  label: string;
  /** Member node ids, in the order listed. */
  members: string[];
  /** Where the `group` keyword stands. */
  position: DiagramPosition;
}

/** A parsed Canvas Diagram 1 source. */
export interface Diagram {
  version: 1;
  direction: DiagramDirection;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  groups: DiagramGroup[];
}

/** The limits a diagram source must stay within (docs/diagram.md, "Limits"). */
export const DIAGRAM_LIMITS = {
  /** Characters (code points) in the whole source. */
  sourceLength: 65_536,
  nodes: 100,
  /** Edges, counting each hop of a chain. */
  edges: 200,
  groups: 20,
  /** Characters (code points) in one label. */
  labelLength: 200,
  /** Characters in one node id. */
  idLength: 64,
} as const;
