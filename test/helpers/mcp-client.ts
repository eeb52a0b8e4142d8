import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator as V2AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * Which official client a session uses: `v1` is `@modelcontextprotocol/sdk`'s client, speaking
 * 2025-11-25 through `initialize`; `v2` is `@modelcontextprotocol/client` pinned to 2026-07-28
 * (`server/discover` and the per-request envelope).
 */
export type Sdk = 'v1' | 'v2';

/** Both clients, for `describe.each`. */
export const SDKS: readonly Sdk[] = ['v1', 'v2'];

/** An MCP client connected to one `canvas mcp --as <who>` process. */
export interface McpSession {
  who: string;
  sdk: Sdk;
  /** The protocol revision the connection speaks. */
  protocol: string;
  /** The v1 client (a v2 session throws: its API differs). */
  client: Client;
  /**
   * Follow a canvas as the client's revision does (`resources/subscribe`, or
   * `subscriptions/listen`), calling `heard` with the URI of each `notifications/resources/updated`;
   * resolves to a function that stops following.
   */
  follow: (ledger: string, heard: (uri: string) => void) => Promise<() => Promise<void>>;
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
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(private readonly ajv: { getValidator: (schema: JsonSchemaType) => JsonSchemaValidator<unknown> }) {}

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

const validators = new CompiledOnce(new AjvJsonSchemaValidator());
const v2Validators = new CompiledOnce(new V2AjvJsonSchemaValidator() as unknown as { getValidator: (schema: JsonSchemaType) => JsonSchemaValidator<unknown> });

/** An SDK client as the tests connect it, checking results with {@link CompiledOnce}. */
export function testClient(): Client {
  return new Client({ name: 'canvas-test', version: '0.0.0' }, { jsonSchemaValidator: validators });
}

/** A v2 client pinned to the 2026-07-28 revision, checking results with {@link CompiledOnce}. */
export function testClientV2(): V2Client {
  return new V2Client({ name: 'canvas-test', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, jsonSchemaValidator: v2Validators as never });
}

/** What the tests need of either client. */
interface AnyClient {
  callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<{ content?: unknown; structuredContent?: unknown; isError?: boolean }>;
  listTools: () => Promise<unknown>;
  close: () => Promise<void>;
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

/** How a session is started: the `--workspace` it is given, more flags, and the client. */
export interface ConnectOptions {
  workspaceArg?: string;
  flags?: readonly string[];
  sdk?: Sdk;
}

/**
 * Spawn `node bin/canvas.js mcp --as <who> --workspace <ws> [flags]` with an official SDK's stdio
 * client (v1 unless `sdk` says v2), as an agent's host would.
 */
export async function connectAs(ws: Workspace, who: string, options: ConnectOptions = {}): Promise<McpSession> {
  const sdk = options.sdk ?? 'v1';
  const params = {
    command: process.execPath,
    args: [join(ROOT, 'bin', 'canvas.js'), 'mcp', '--as', who, '--workspace', options.workspaceArg ?? ws.root, ...(options.flags ?? [])],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'pipe' as const,
  };
  let v1: Client | null = null;
  let v2: V2Client | null = null;
  let client: AnyClient;
  let protocol: string;
  if (sdk === 'v1') {
    v1 = testClient();
    await v1.connect(new StdioClientTransport(params));
    client = v1 as unknown as AnyClient;
    // The v1 client asks for its latest revision in `initialize`, which the server speaks.
    protocol = LATEST_PROTOCOL_VERSION;
  } else {
    v2 = testClientV2();
    await v2.connect(new V2StdioClientTransport(params));
    client = v2 as unknown as AnyClient;
    protocol = v2.getNegotiatedProtocolVersion() ?? 'none';
  }
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
  const follow = async (ledger: string, heard: (uri: string) => void): Promise<() => Promise<void>> => {
    const uri = `canvas://${ledger}`;
    if (v1) {
      v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard(n.params.uri));
      await v1.subscribeResource({ uri });
      return async () => {
        await v1!.unsubscribeResource({ uri });
      };
    }
    v2!.setNotificationHandler('notifications/resources/updated', (n) => heard(n.params.uri));
    const subscription = await v2!.listen({ resourceSubscriptions: [uri] });
    return () => subscription.close();
  };
  return {
    who,
    sdk,
    protocol,
    get client(): Client {
      if (!v1) throw new Error('a v2 session has no v1 client');
      return v1;
    },
    follow,
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
