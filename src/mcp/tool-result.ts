/**
 * Map what the store returns or throws to MCP tool results (STYLE habit 5: errors are mapped at
 * the edges only; docs/mcp.md "Results and errors").
 *
 * - A write's outcome (`applied`, `proposed`, `conflict`, `rejected`): one text content holding
 *   the outcome as JSON, `isError: false` (docs/mcp.md "The four outcomes"). A refusal thrown as a
 *   `rejected`-kind CanvasError (say, WORKSPACE_MISMATCH) becomes the `rejected` outcome.
 * - Any other refusal (NO_ROLE, a read of a missing canvas, a workspace mismatch on a read):
 *   `{"error":{"code","message","hint"[,"data"]}}`, `isError: false`: it is a clear answer to the
 *   call, not a failure of the server.
 * - A fault of the server itself (git failed, the lock timed out, a full disk, a bug): the same
 *   error JSON with `isError: true`, and one line on stderr (a stack trace only with
 *   `CANVAS_DEBUG=1`). Only these are `isError: true` (besides the SDK's own refusal of
 *   arguments that do not match a tool's input schema).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CanvasError } from '../model/canvas-error.js';
import { noSpace } from '../store/no-space.js';
import type { Outcome } from '../store/outcome.js';
import { rejectionOf } from '../store/rejection-of.js';

/** A result of one text content. */
export function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}

/** A write's outcome as JSON text, `isError: false`. */
function outcomeResult(outcome: Outcome): CallToolResult {
  return textResult(JSON.stringify(outcome));
}

/**
 * An error that is not an outcome, as `{"error":{...}}`. `isError` is true only for a fault of
 * the server (an internal CanvasError or anything that is not a CanvasError), which is also
 * written to stderr for whoever runs the server.
 */
export function errorResult(e: unknown): CallToolResult {
  if (e instanceof CanvasError) {
    const fault = e.kind === 'internal' || e.kind === 'verify';
    if (fault) process.stderr.write(`canvas mcp: ${e.code}: ${e.message}\n`);
    return textResult(JSON.stringify({ error: e }), fault);
  }
  const full = noSpace(e);
  if (full) return errorResult(full);
  const debug = process.env.CANVAS_DEBUG === '1';
  const message = (e as Error)?.message || String(e);
  process.stderr.write(`canvas mcp: INTERNAL: ${debug ? ((e as Error)?.stack ?? message) : message}\n`);
  return textResult(JSON.stringify({ error: { code: 'INTERNAL', message, hint: 'this is a bug in the canvas server; report it with the call that caused it' } }), true);
}

/**
 * Run a write and map it: its outcome as JSON; a `rejected`-kind CanvasError thrown before the
 * store was reached as the `rejected` outcome; NO_ROLE and faults through {@link errorResult}.
 */
export async function writeResult(run: () => Promise<Outcome>): Promise<CallToolResult> {
  try {
    return outcomeResult(await run());
  } catch (e) {
    if (e instanceof CanvasError && e.kind === 'rejected') return outcomeResult(rejectionOf(e));
    return errorResult(e);
  }
}

/** Run a read and map it: its text, or any error through {@link errorResult}. */
export async function readResult(run: () => Promise<string>): Promise<CallToolResult> {
  try {
    return textResult(await run());
  } catch (e) {
    return errorResult(e);
  }
}
