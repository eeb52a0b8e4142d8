/**
 * The one way a canvas tool is registered (docs/mcp.md "Results and errors"): every tool takes
 * `workspace` (checked first), declares an `outputSchema`, and answers `structuredContent` with
 * the same value as its one text content, for clients that read only text.
 *
 * - A value the tool returns: `structuredContent` is the value; the text is its JSON, or what
 *   `text` makes of it (`canvas_read` prints `Canvas-Base:` and the XML, as `canvas read` does).
 * - A refusal: for a tool whose results are outcomes (`refusal: 'outcome'`), a `rejected`-kind
 *   CanvasError is the `rejected` outcome; every other refusal is the error shape
 *   `{"error":{code,message,hint[,data]}}` (tool-result.ts says when that is `isError`). Either
 *   hint speaks MCP: it names a tool and its argument, never a flag (mcp-hint.ts).
 * - The output schema is the tool's result shapes and the error shape, joined (object-union.ts),
 *   so every answer of the tool, success or refusal, validates against it.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CanvasError } from '../model/canvas-error.js';
import { rejectionOf } from '../store/rejection-of.js';
import { checkWorkspace } from './check-workspace.js';
import { objectUnion } from './object-union.js';
import { AppliedSchema, ConflictSchema, ErrorResultSchema, ProposedSchema, RejectedSchema } from './outcome-schemas.js';
import type { ServerContext } from './server-context.js';
import { workspaceArg } from './tool-arguments.js';
import { mcpHint } from './mcp-hint.js';
import { errorResult } from './tool-result.js';

/** What a client may assume of a tool (MCP's tool annotations), each said outright. */
export interface CanvasToolAnnotations {
  /** True when the tool changes nothing. */
  readOnlyHint: boolean;
  /** True when a call may overwrite or drop content (a replace, a remove, a revoke). */
  destructiveHint: boolean;
  /** True when the same call again changes nothing more (it answers a refusal or the same value). */
  idempotentHint: boolean;
  /** True when the tool reaches beyond the workspace (canvas_check asks a model). */
  openWorldHint: boolean;
}

/** A tool: its words, its arguments beyond `workspace`, its result shapes, and how it refuses. */
export interface CanvasToolSpec<Args extends z.ZodRawShape, Value extends object> {
  title: string;
  /** What a client shows the model: what the tool does, its result, its refusals. */
  description: string;
  /** The arguments beside `workspace`, each with a description; unknown arguments are refused. */
  args: Args;
  /** The shapes a successful call returns (strict zod objects), or `'outcome'` for the four outcomes. */
  result: 'outcome' | readonly [z.ZodObject, ...z.ZodObject[]];
  annotations: CanvasToolAnnotations;
  /** The text content made from the value (default: its JSON). */
  text?: (value: Value) => string;
  /**
   * True for a read that makes the caller a watcher: it changes no canvas but writes the
   * caller's state, so its calls are ordered as a write's (docs/mcp.md, "Order of calls").
   */
  watches?: true;
}

/** The four outcomes, as a write tool's result shapes. */
const OUTCOMES = [AppliedSchema, ProposedSchema, ConflictSchema, RejectedSchema] as const;

/**
 * Register one canvas tool on the server (docs/mcp.md "Results and errors"). The call is counted
 * in flight (`ctx.track`), the workspace is checked before `run`, and whatever `run` returns or
 * throws is mapped as the header says.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 * @param name - the tool's name, `canvas_<verb>`
 * @param spec - title, description, arguments, result shapes, annotations, and the text of a value
 * @param run - the tool's work on its parsed arguments (without `workspace`): its value, or a throw
 */
export function registerCanvasTool<Args extends z.ZodRawShape, Value extends object>(
  server: McpServer,
  ctx: ServerContext,
  name: string,
  spec: CanvasToolSpec<Args, Value>,
  run: (args: z.output<z.ZodObject<Args>>) => Promise<Value>,
): void {
  const shapes: readonly [z.ZodObject, ...z.ZodObject[]] = spec.result === 'outcome' ? OUTCOMES : spec.result;
  const outcomes = spec.result === 'outcome';
  const text = spec.text ?? ((value: Value) => JSON.stringify(value));
  if (spec.annotations.readOnlyHint && !spec.watches) ctx.reads.add(name);
  const answer = async (args: z.output<z.ZodObject<Args>> & { workspace: string }): Promise<CallToolResult> => {
    let value: Value;
    try {
      checkWorkspace(ctx.ws, args.workspace);
      value = await run(args);
    } catch (e) {
      if (outcomes && e instanceof CanvasError && e.kind === 'rejected') value = rejectionOf(e) as unknown as Value;
      else return errorResult(e);
    }
    // A rejected outcome's hint names the tool and its argument, not a command's flag.
    if (outcomes && (value as { outcome?: string }).outcome === 'rejected') value = { ...value, hint: mcpHint((value as unknown as { hint: string }).hint) };
    const body = text(value);
    // The structured value is the text's JSON read back: the two never differ, and it holds no
    // undefined or class instance a client could not receive.
    const structuredContent = (spec.text ? JSON.parse(JSON.stringify(value)) : JSON.parse(body)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: body }], structuredContent, isError: false };
  };
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: z.strictObject({ workspace: workspaceArg, ...spec.args }),
      outputSchema: objectUnion([...shapes, ErrorResultSchema]),
      annotations: spec.annotations,
    },
    // The SDK parsed the arguments with the strict input schema above, so they have its shape.
    ((args: z.output<z.ZodObject<Args>> & { workspace: string }, extra: { mcpReq: { id: string | number } }) => ctx.track(answer(args), extra.mcpReq.id)) as never,
  );
  ctx.tools.add(name);
}
