import type { NodePayload } from '../model/types.js';

/** One thing an import changed or left out, with the Markdown line it came from (docs/import.md). */
export interface Flattening {
  /** 1-based line of the Markdown source. */
  line: number;
  /** What was flattened, kept as text, or skipped, in one plain sentence. */
  what: string;
}

/** One node an import will insert, in document order (a section before its children). */
export interface PlannedNode {
  /** The node, checked against the schema before the first write. */
  payload: NodePayload;
  /** 1-based line of the Markdown block it came from. */
  line: number;
  /** The block kind as the reason names it: `paragraph`, `section (##)`, `code (js)`, ... */
  kind: string;
  /** Index in the plan of the section that holds it, or null for the root. */
  parent: number | null;
}

/** What a Markdown document maps to: the nodes to insert and what the mapping flattened. */
export interface ImportPlan {
  nodes: PlannedNode[];
  flattened: Flattening[];
}
