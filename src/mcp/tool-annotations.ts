/**
 * The annotations the canvas tools share (docs/mcp.md, "Annotations"): what a client may assume
 * of a tool. Only what differs from MCP's defaults (not read-only, destructive, not idempotent,
 * open world) is said. A tool that differs from these says why beside it.
 */
import type { CanvasToolAnnotations } from './register-canvas-tool.js';

/** A read changes nothing and reaches nothing beyond the workspace. */
export const READ: CanvasToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/**
 * A write that only adds (a node, a decision) and is refused when repeated. A node edit against
 * the same base again is a conflict (its node changed after that base), a proposal is decided
 * once and a canvas opened once, so those repeats change nothing more.
 */
export const WRITE: CanvasToolAnnotations = { destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A write that adds each time it is called (a second node, one more ending). */
export const ADDS: CanvasToolAnnotations = { destructiveHint: false, openWorldHint: false };

/**
 * A write that overwrites or drops what the document or the grants show now (a replace, a
 * remove, a grant that replaces a higher role); the same call again changes nothing more. The
 * history keeps every version.
 */
export const OVERWRITES: CanvasToolAnnotations = { idempotentHint: true, openWorldHint: false };
