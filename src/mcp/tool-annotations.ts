/**
 * The annotations the canvas tools share (docs/mcp.md "Annotations"): what a client may assume of
 * a tool, each of MCP's four hints said outright. A tool that differs spreads one of these and
 * says why beside it (`canvas_replace` is destructive, `canvas_insert` is not idempotent).
 */
import type { CanvasToolAnnotations } from './register-canvas-tool.js';

/** A read changes nothing, so the same call again changes nothing either. */
export const READ: CanvasToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * A write that only adds (a node, a decision) and is refused when repeated. A node edit against
 * the same base again is a conflict (its node changed after that base), a proposal is decided
 * once and a canvas opened once, so those repeats change nothing more.
 */
export const WRITE: CanvasToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
