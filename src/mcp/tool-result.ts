/**
 * Map what a tool throws to its MCP result (STYLE habit 5: errors are mapped at the edges only;
 * docs/mcp.md "Results and errors"). A tool's value and a write's outcome are mapped by
 * register-canvas-tool.ts; this is every other refusal.
 *
 * - A refusal (NO_ROLE, a read of a missing canvas, a workspace mismatch on a read):
 *   `{"error":{"code","message","hint"[,"data"]}}`, `isError: false`: it is a clear answer to the
 *   call, not a failure of the server.
 * - A fault of the server itself (git failed, the lock timed out, a full disk, a bug): the same
 *   error shape with `isError: true`, and one line on stderr (a stack trace only with
 *   `CANVAS_DEBUG=1`).
 * - A model that could not be asked or whose reply was refused (canvas_check): the error shape
 *   with `isError: true`, so a host sees the check did not happen; not a fault of the server, so
 *   nothing on stderr.
 *
 * Only these are `isError: true` (besides the SDK's own refusal of arguments that do not match a
 * tool's input schema). The error shape is both the text (as JSON) and the structured content;
 * its hint speaks MCP (mcp-hint.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { noSpace } from '../store/no-space.js';
import { permissionDenied } from '../store/permission-denied.js';
import { mcpHint } from './mcp-hint.js';

/** The error shape as both text and structured content. */
function errorShape(error: { code: string; message: string; hint: string; data?: Record<string, unknown> }, isError: boolean): CallToolResult {
  const text = JSON.stringify({ error });
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown>, isError };
}

/**
 * An error that is not an outcome, as `{"error":{...}}`. `isError` is true only for a fault of
 * the server (an internal CanvasError or anything that is not a CanvasError), which is also
 * written to stderr for whoever runs the server, and for a model that failed a check.
 *
 * @param e - what a tool threw
 * @returns the error shape as text and structured content
 */
export function errorResult(e: unknown): CallToolResult {
  if (e instanceof CanvasError) {
    const fault = e.kind === 'internal' || e.kind === 'verify';
    if (fault) process.stderr.write(`canvas mcp: ${e.code}: ${e.message}\n`);
    return errorShape({ ...e.toJSON(), hint: mcpHint(e.hint) }, fault || e.kind === 'model' || e.kind === 'reply');
  }
  const known = noSpace(e) ?? permissionDenied(e);
  if (known) return errorResult(known);
  const debug = process.env.CANVAS_DEBUG === '1';
  const message = (e as Error)?.message || String(e);
  process.stderr.write(`canvas mcp: INTERNAL: ${debug ? ((e as Error)?.stack ?? message) : message}\n`);
  return errorShape({ code: 'INTERNAL', message, hint: 'this is a bug in the canvas server; report it with the call that caused it' }, true);
}
