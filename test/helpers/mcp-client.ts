import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { expect } from 'vitest';
import { AppliedSchema, ConflictSchema, ErrorResultSchema, ProposedSchema, RejectedSchema } from '../../src/mcp/outcome-schemas.js';
import type { Outcome } from '../../src/store/outcome.js';
import type { Workspace } from '../../src/store/workspace.js';
import { ROOT } from './workspace.js';

/** What a tool call returned: its one text content, its structured content and its isError flag. */
export interface ToolCall {
  text: string;
  isError: boolean;
  /** The structured content; absent only when the SDK refused the arguments (isError). */
  structured: Record<string, unknown> | undefined;
}

/** An MCP client connected to one `canvas mcp --as <who>` process. */
export interface McpSession {
  who: string;
  client: Client;
  /** Call a tool and return its one text content. */
  call: (name: string, args: Record<string, unknown>) => Promise<ToolCall>;
  /** Call a write tool and return its outcome, checked against exactly one outcome schema. */
  write: (name: string, args: Record<string, unknown>) => Promise<Outcome>;
  /** Call a tool that must answer with the error shape; return the error. */
  error: (name: string, args: Record<string, unknown>) => Promise<{ code: string; message: string; hint: string }>;
  /** Call canvas_read and return the Canvas-Base: sha and the XML. */
  read: (ledger: string) => Promise<{ base: string; xml: string }>;
  close: () => Promise<void>;
}

const OUTCOMES = [AppliedSchema, ProposedSchema, ConflictSchema, RejectedSchema];

/**
 * The SDK's own output-schema validator (its Ajv, with its options), compiling each schema once
 * per process, when a result of its tool is first checked. The SDK's default compiles every
 * tool's output schema in each client at each tools/list, whether the tool is called or not:
 * about 0.6 s of CPU a listing, most of an MCP test file's own CPU (docs/architecture.md, "The
 * test suite"). Every result is checked against the same schema as before.
 */
class CompiledOnce implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    return (input) => {
      let validate = this.compiled.get(key);
      if (validate === undefined) {
        validate = this.ajv.getValidator(schema);
        this.compiled.set(key, validate);
      }
      return validate(input) as ReturnType<JsonSchemaValidator<T>>;
    };
  }
}

const validators = new CompiledOnce();

/** An SDK client as the tests connect it, checking results with {@link CompiledOnce}. */
export function testClient(): Client {
  return new Client({ name: 'canvas-test', version: '0.0.0' }, { jsonSchemaValidator: validators });
}

/**
 * Check a write tool's result: not isError, one text content, JSON that parses against exactly
 * one of the four outcome schemas (and not the error shape).
 */
export function outcomeOf(result: ToolCall): Outcome {
  expect(result.isError, result.text).toBe(false);
  const json: unknown = JSON.parse(result.text);
  expect(result.structured, result.text).toEqual(json);
  const matched = OUTCOMES.filter((s) => s.safeParse(json).success);
  expect(matched, result.text).toHaveLength(1);
  expect(ErrorResultSchema.safeParse(json).success).toBe(false);
  return json as Outcome;
}

/**
 * Spawn `node bin/canvas.js mcp --as <who> --workspace <ws> [flags]` with the SDK's stdio client,
 * as an agent's host would.
 */
export async function connectAs(ws: Workspace, who: string, workspaceArg: string = ws.root, flags: readonly string[] = []): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'canvas.js'), 'mcp', '--as', who, '--workspace', workspaceArg, ...flags],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'pipe',
  });
  const client = testClient();
  await client.connect(transport);
  // Listing the tools makes the client check every result's structured content against the
  // tool's output schema from then on (callTool throws when it does not validate).
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolCall> => {
    const r = await client.callTool({ name, arguments: args });
    const content = r.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe('text');
    const text = content[0]!.text;
    const structured = r.structuredContent as Record<string, unknown> | undefined;
    if (structured === undefined) {
      // Only the SDK's own refusal of the arguments comes without it.
      expect(r.isError, text).toBe(true);
      expect(text, name).toMatch(/Input validation error|MCP error/);
    } else if (text.startsWith('{')) {
      expect(JSON.parse(text), name).toEqual(structured);
    }
    // Every refusal's hint speaks MCP: a tool and its argument, never a command's flag.
    const hint = (structured?.error as { hint?: string } | undefined)?.hint ?? (structured?.outcome === 'rejected' ? (structured.hint as string) : undefined);
    if (hint !== undefined) expect(hint, `${name}: ${text}`).not.toMatch(/(^|[^\w-])--[a-z]/);
    return { text, isError: r.isError === true, structured };
  };
  return {
    who,
    client,
    call,
    write: async (name, args) => outcomeOf(await call(name, args)),
    error: async (name, args) => {
      const r = await call(name, args);
      expect(r.isError, r.text).toBe(false);
      const json: unknown = JSON.parse(r.text);
      expect(ErrorResultSchema.safeParse(json).success, r.text).toBe(true);
      expect(OUTCOMES.some((s) => s.safeParse(json).success)).toBe(false);
      return (json as { error: { code: string; message: string; hint: string } }).error;
    },
    read: async (ledger) => {
      const r = await call('canvas_read', { workspace: ws.root, ledger });
      expect(r.isError, r.text).toBe(false);
      const m = /^Canvas-Base: ([0-9a-f]{40})\n([\s\S]*)$/.exec(r.text);
      if (!m) throw new Error(`canvas_read did not print Canvas-Base: first:\n${r.text}`);
      return { base: m[1]!, xml: m[2]! };
    },
    close: () => client.close(),
  };
}
