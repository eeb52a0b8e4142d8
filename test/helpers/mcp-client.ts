import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as V2HttpClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator as V2AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { expect } from 'vitest';
import { sentTwice } from '../../bench/lib/mcp-tokens.js';
import type { Outcome } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { ROOT } from './workspace.js';

/**
 * What a tool call returned: its structured content (as JSON text too, for the tests' reading),
 * or the text of an execution error, and its isError flag.
 */
export interface ToolCall {
  /** The text of an execution error (isError), else the structured content's JSON. */
  text: string;
  isError: boolean;
  /** The structured content; absent only for an execution error (isError). */
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
  /** The tools as the client lists them. */
  listTools: () => Promise<unknown[]>;
  /** The prompts as the client lists them. */
  listPrompts: () => Promise<unknown[]>;
  /** Get a prompt: its messages, as the client received them (a refusal throws the JSON-RPC error). */
  getPrompt: (name: string, args: Record<string, string>) => Promise<unknown[]>;
  /** Call a tool and return its answer. */
  call: (name: string, args: Record<string, unknown>) => Promise<ToolCall>;
  /** Call a write tool and return its outcome, checked against exactly one outcome schema. */
  write: (name: string, args: Record<string, unknown>) => Promise<Outcome>;
  /** Call a tool that must answer with the error shape; return the error. */
  error: (name: string, args: Record<string, unknown>) => Promise<{ code: string; message: string; hint: string }>;
  /** Call canvas_read and return the revision (the base to write against) and the XML. */
  read: (ledger: string) => Promise<{ base: string; xml: string }>;
  close: () => Promise<void>;
}

/** The keys each outcome always has (docs/mcp.md, "The four outcomes"). */
const OUTCOME_KEYS: Record<string, readonly string[]> = {
  applied: ['outcome', 'revision', 'node', 'diff'],
  proposed: ['outcome', 'proposalId', 'revision'],
  conflict: ['outcome', 'code', 'node', 'expectedRevision', 'currentRevision', 'diff'],
  rejected: ['outcome', 'code', 'reason', 'hint'],
};

/**
 * The SDK's own output-schema validator (its Ajv, with its options), compiling each schema once
 * per process, when a result of its tool is first checked. The SDK's default compiles every
 * tool's output schema in each client at each tools/list, whether the tool is called or not:
 * about 0.6 s of CPU a listing, most of an MCP test file's own CPU (docs/testing.md, "Output schemas compiled once").
 * Every result is checked against the same schema as before.
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
  listTools: () => Promise<{ tools: unknown[] }>;
  listPrompts: () => Promise<{ prompts: unknown[] }>;
  getPrompt: (params: { name: string; arguments?: Record<string, string> }) => Promise<{ messages: unknown[] }>;
  close: () => Promise<void>;
}

/**
 * Check a write tool's result: not isError, structured content that is exactly one of the four
 * outcomes, with that outcome's keys (and not the error shape).
 */
export function outcomeOf(result: ToolCall): Outcome {
  expect(result.isError, result.text).toBe(false);
  const value = result.structured as Record<string, unknown>;
  const keys = OUTCOME_KEYS[String(value.outcome)];
  expect(keys, result.text).toBeDefined();
  for (const k of keys!) expect(value, `${k} of ${result.text}`).toHaveProperty(k);
  expect(value).not.toHaveProperty('error');
  return value as unknown as Outcome;
}

/** Check a refusal that is not an outcome: the error shape, its code, message and hint. */
function errorOf(result: ToolCall): { code: string; message: string; hint: string } {
  expect(result.isError, result.text).toBe(false);
  const value = result.structured as { error?: { code: string; message: string; hint: string }; outcome?: unknown };
  expect(value.outcome, result.text).toBeUndefined();
  expect(Object.keys(value)).toEqual(['error']);
  for (const k of ['code', 'message', 'hint'] as const) expect(typeof value.error?.[k], `${k} of ${result.text}`).toBe('string');
  return value.error!;
}

/** How a session is started: the `--workspace` it is given, more flags, and the client. */
export interface ConnectOptions {
  workspaceArg?: string;
  flags?: readonly string[];
  sdk?: Sdk;
  /** Talk Streamable HTTP to this `/mcp` URL with this agent token, instead of spawning `canvas mcp`. */
  http?: { url: string; token: string };
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
    const headers = { Authorization: `Bearer ${options.http?.token}` };
    await v1.connect(options.http ? new StreamableHTTPClientTransport(new URL(options.http.url), { requestInit: { headers } }) : new StdioClientTransport(params));
    client = v1 as unknown as AnyClient;
    // The v1 client asks for its latest revision in `initialize`, which the server speaks.
    protocol = LATEST_PROTOCOL_VERSION;
  } else {
    v2 = testClientV2();
    const headers = { Authorization: `Bearer ${options.http?.token}` };
    await v2.connect(options.http ? new V2HttpClientTransport(new URL(options.http.url), { requestInit: { headers } }) : new V2StdioClientTransport(params));
    client = v2 as unknown as AnyClient;
    protocol = v2.getNegotiatedProtocolVersion() ?? 'none';
  }
  // Listing the tools makes the client check every result's structured content against the
  // tool's output schema from then on (callTool throws when it does not validate).
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolCall> => {
    const r = await client.callTool({ name, arguments: args });
    const content = (r.content ?? []) as { type: string; text: string }[];
    const structured = r.structuredContent as Record<string, unknown> | undefined;
    let text: string;
    if (r.isError === true) {
      // An execution error (a fault, a model's failure, the SDK's refusal of the arguments) is its text alone.
      expect(structured, name).toBeUndefined();
      expect(content).toHaveLength(1);
      expect(content[0]!.type).toBe('text');
      text = content[0]!.text;
    } else {
      // Nothing is sent twice: a client on a revision with structured content gets it alone,
      // and no text in it is repeated.
      expect(structured, name).toBeDefined();
      expect(content, name).toEqual([]);
      expect(sentTwice(r), name).toEqual([]);
      text = JSON.stringify(structured);
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
  const session: McpSession = {
    who,
    sdk,
    protocol,
    get client(): Client {
      if (!v1) throw new Error('a v2 session has no v1 client');
      return v1;
    },
    follow,
    listTools: async () => (await client.listTools()).tools,
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args })).messages,
    call,
    // Through `session.call`, so that a test that wraps it sees every call.
    write: async (name, args) => outcomeOf(await session.call(name, args)),
    error: async (name, args) => errorOf(await session.call(name, args)),
    read: async (ledger) => {
      const r = await session.call('canvas_read', { workspace: ws.root, ledger });
      expect(r.isError, r.text).toBe(false);
      const value = r.structured as { revision?: string; xml?: string };
      expect(value.revision, r.text).toMatch(/^[0-9a-f]{40}$/);
      return { base: value.revision!, xml: value.xml! };
    },
    close: () => client.close(),
  };
  return session;
}
