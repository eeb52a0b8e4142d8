/**
 * A tool's answer as an MCP result (docs/mcp.md "Results": the store throws or returns outcomes,
 * and errors become results here, at the edge, and nowhere else). Nothing is sent twice: a client on a revision that has structured
 * content (2025-06-18 and later) gets the value as `structuredContent` alone; a client on an
 * earlier revision, which cannot read it, gets it as the text too (the revisions say a tool
 * SHOULD also return the serialized value as text for such clients).
 *
 * - A value, or a refusal (NO_ROLE, a read refused, a workspace mismatch on a read) as the error
 *   shape `{"error":{"code","message","hint"[,"data"]}}`: `isError: false`, a clear answer to
 *   the call, not a failure of the server.
 * - A fault of the server itself (git failed, the lock timed out, a full disk, a bug), and a
 *   model that could not be asked or whose reply was refused (canvas_check): the error shape as
 *   the text alone, `isError: true`, as the revisions say a tool's execution error is sent (no
 *   structured content: a client checks none). A fault is also one line on stderr (a stack trace
 *   only with `CANVAS_DEBUG=1`); a model's failure is not the server's, so nothing on stderr.
 *
 * Only these are `isError: true`, besides the SDK's own refusal of arguments that do not match
 * a tool's input schema. The error shape's hint speaks MCP (mcp-hint.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { noSpace, permissionDenied } from '../store/index.js';
import { mcpHint } from './mcp-hint.js';

/** The first revision with structured content. */
const STRUCTURED_SINCE = '2025-06-18';

/**
 * Whether a client on this protocol revision reads `structuredContent`.
 *
 * @param protocol - the revision the connection speaks (undefined: not known, taken as current)
 */
function readsStructured(protocol: string | undefined): boolean {
  return protocol === undefined || protocol >= STRUCTURED_SINCE;
}

/**
 * A value as a tool's result: structured content, and the text only for a client that cannot
 * read structured content.
 *
 * @param value - a JSON value (its JSON read back: no undefined, no class instance)
 * @param protocol - the revision the connection speaks
 * @param text - what such a client reads instead (default: the value's JSON), made only for it
 */
export function valueResult(value: object, protocol: string | undefined, text?: () => string): CallToolResult {
  const json = JSON.stringify(value);
  const structuredContent = JSON.parse(json) as Record<string, unknown>;
  if (readsStructured(protocol)) return { content: [], structuredContent, isError: false };
  return { content: [{ type: 'text', text: text?.() ?? json }], structuredContent, isError: false };
}

/**
 * What a tool threw, as its result: a refusal as the error shape (a value), a fault or a
 * model's failure as the text of an execution error.
 *
 * @param e - what a tool threw
 * @param protocol - the revision the connection speaks
 */
export function errorResult(e: unknown, protocol: string | undefined): CallToolResult {
  if (e instanceof CanvasError) {
    const fault = e.kind === 'internal' || e.kind === 'verify';
    if (fault) process.stderr.write(`canvas mcp: ${e.code}: ${e.message}\n`);
    const error = { ...e.toJSON(), hint: mcpHint(e.hint) };
    if (fault || e.kind === 'model' || e.kind === 'reply') return { content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true };
    return valueResult({ error }, protocol);
  }
  const known = noSpace(e) ?? permissionDenied(e);
  if (known) return errorResult(known, protocol);
  const debug = process.env.CANVAS_DEBUG === '1';
  const message = (e as Error)?.message || String(e);
  process.stderr.write(`canvas mcp: INTERNAL: ${debug ? ((e as Error)?.stack ?? message) : message}\n`);
  const error = { code: 'INTERNAL', message, hint: 'this is a bug in the canvas server; report it with the call that caused it' };
  return { content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true };
}
