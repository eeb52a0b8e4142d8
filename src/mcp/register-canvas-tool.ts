/**
 * The one way a canvas tool is registered (docs/mcp.md, "Results"): every tool takes `workspace`
 * (checked first), declares its output schema (result-schemas.ts), and answers its value or a
 * refusal as tool-result.ts says, once.
 *
 * - A value the tool returns is the structured content.
 * - A refusal: for a write tool, a `rejected`-kind CanvasError is the `rejected` outcome; every
 *   other refusal is the error shape `{"error":{code,message,hint[,data]}}`. Either hint speaks
 *   MCP: it names a tool and its argument, never a flag (explain-refusal.ts, mcp-hint.ts).
 */
import { type CallToolResult, type McpServer, PROTOCOL_VERSION_META_KEY, type ServerContext as SdkContext, type ToolAnnotations } from '@modelcontextprotocol/server';
import { CanvasError } from '../model/canvas-error.js';
import { rejectionOf } from '../store/index.js';
import { checkWorkspace } from './check-workspace.js';
import { explainRefusal } from './explain-refusal.js';
import { type Json, standardSchema, str } from './json-schema.js';
import { mcpHint } from './mcp-hint.js';
import { OUTCOME_SCHEMAS } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import type { ToolArgs } from './tool-arguments.js';
import { errorResult, valueResult } from './tool-result.js';

/**
 * What a client may assume of a tool (MCP's tool annotations). Only what differs from MCP's
 * defaults is said (not read-only, destructive, not idempotent, open world), and a read says
 * neither destructive nor idempotent, which the revisions define for writes only.
 */
export type CanvasToolAnnotations = Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>;

/** A tool: its words, its arguments beyond `workspace`, its result, and how it refuses. */
export interface CanvasToolSpec<Value extends object> {
  /** What a client shows the model: what the tool does that the instructions do not say. */
  description: string;
  /** The arguments beside `workspace`; unknown arguments are refused. */
  args: ToolArgs;
  /** The output schema (result-schemas.ts); an outcome schema makes it a write tool. */
  result: Json;
  annotations: CanvasToolAnnotations;
  /** The text a client that cannot read structured content gets (default: the value's JSON). */
  text?: (value: Value) => string;
  /**
   * True for a read that makes the caller a watcher: it changes no canvas but writes the
   * caller's state, so its calls are ordered as a write's (docs/mcp.md, "Order of calls").
   */
  watches?: true;
  /**
   * For a tool that reads a canvas: the URI of the canvas's view that its result links
   * (`_meta.ui.resourceUri`, docs/mcp.md "The canvas in chat hosts"), for a host that draws it.
   */
  view?: (value: Value) => string;
}

/**
 * Register one canvas tool on the server (docs/mcp.md, "Results"). The call is counted in flight
 * (`ctx.track`), the workspace is checked before `run`, and whatever `run` returns or throws is
 * mapped as the header says.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 * @param name - the tool's name, `canvas_<verb>`
 * @param spec - description, arguments, result schema, annotations, the text of a value
 * @param run - the tool's work on its validated arguments (without `workspace`): its value, or a throw
 */
export function registerCanvasTool<Args, Value extends object>(server: McpServer, ctx: ServerContext, name: string, spec: CanvasToolSpec<Value>, run: (args: Args) => Promise<Value>): void {
  const outcomes = OUTCOME_SCHEMAS.has(spec.result);
  if (spec.annotations.readOnlyHint === true && !spec.watches) ctx.reads.add(name);
  const answer = async (args: Args & { workspace: string }, protocol: string | undefined): Promise<CallToolResult> => {
    let value: Value;
    try {
      checkWorkspace(ctx.ws, args.workspace);
      value = await run(args);
    } catch (thrown) {
      const e = await explainRefusal(ctx, thrown);
      if (!outcomes || !(e instanceof CanvasError) || e.kind !== 'rejected') return errorResult(e, protocol);
      value = rejectionOf(e) as unknown as Value;
    }
    // A rejected outcome's hint names the tool and its argument, not a command's flag.
    if (outcomes && (value as { outcome?: string }).outcome === 'rejected') value = { ...value, hint: mcpHint((value as unknown as { hint: string }).hint) };
    const result = valueResult(value, protocol, spec.text && (() => spec.text!(value)));
    if (spec.view && !('error' in value)) result._meta = { ui: { resourceUri: spec.view(value) } };
    return result;
  };
  const input: Json = {
    type: 'object',
    properties: { workspace: str, ...spec.args.properties },
    required: ['workspace', ...spec.args.required],
    additionalProperties: false,
  };
  server.registerTool(
    name,
    {
      description: spec.description,
      inputSchema: standardSchema<Args & { workspace: string }>(input),
      outputSchema: standardSchema<Value>(spec.result),
      annotations: spec.annotations,
    },
    (args: Args & { workspace: string }, extra: SdkContext) => {
      // The revision of this request: its envelope's on 2026-07-28, the handshake's before.
      const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
      const claimed = envelope?.[PROTOCOL_VERSION_META_KEY];
      const protocol = typeof claimed === 'string' ? claimed : server.server.getNegotiatedProtocolVersion();
      return ctx.track(answer(args, protocol), extra.mcpReq.id);
    },
  );
  ctx.tools.add(name);
}
