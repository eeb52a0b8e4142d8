/**
 * The declared surface of `task-canvas/model` (docs/library.md, "Entries"): the canvas tree's pure
 * functions: safe parse, canonical serialize, node diff, the diagram grammar.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export type { Diagram, DiagramDirection, DiagramEdge, DiagramGroup, DiagramNode, DiagramPosition } from './diagram/diagram-types.js';
export { parseDiagram } from './diagram/parse-diagram.js';
export { type NodeChange, type NodeState, diffCanvases } from './diff-canvases.js';
export { parseCanvas } from './parse-canvas.js';
export { parsePayload } from './parse-payload.js';
export type { PayloadInput } from './payload-from-input.js';
export { serializeCanvas } from './serialize-canvas.js';
export { serializeNode } from './serialize-node.js';
