// What a model pays for an MCP server, in o200k_base tokens (gpt-tokenizer): its tool listing
// and its instructions, before the first call, and the calls of a session. Shared by the
// mcp-tokens benchmark and the budget test (test/mcp/budget.test.ts).
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** Tokens of a value as JSON (a string as it is). */
export function tokensOf(value: unknown): number {
  return encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}

/** A tool as `tools/list` gives it. */
export interface ListedTool {
  name: string;
  outputSchema?: unknown;
  [key: string]: unknown;
}

/** What a server's listing costs. */
export interface ListingTokens {
  tools: number;
  /** What a host sends the model: every tool without its output schema. */
  modelVisible: number;
  /** The whole listing, output schemas included. */
  withOutputSchemas: number;
  /** The server's instructions (sent once, with the handshake). */
  instructions: number;
  perTool: number;
}

/**
 * Count a listing as the notes of 2026-12-03 did: `encode(JSON.stringify(tools)).length`, with
 * and without each tool's `outputSchema`; the instructions beside.
 *
 * @param tools - `tools/list`'s tools
 * @param instructions - the server's instructions, if any
 */
export function countListing(tools: readonly ListedTool[], instructions: string | undefined): ListingTokens {
  const visible = tools.map(({ outputSchema: _, ...rest }) => rest);
  const modelVisible = tokensOf(visible);
  return {
    tools: tools.length,
    modelVisible,
    withOutputSchemas: tokensOf(tools),
    instructions: instructions ? tokensOf(instructions) : 0,
    perTool: Math.round(modelVisible / Math.max(1, tools.length)),
  };
}

/** A tool result as a client receives it. */
export interface ReceivedResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/** Tokens of what a result carries to a model: its text contents and its structured content. */
export function resultTokens(r: ReceivedResult): number {
  const texts = ((r.content ?? []) as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text ?? '');
  return texts.reduce((n, t) => n + tokensOf(t), 0) + (r.structuredContent === undefined ? 0 : tokensOf(r.structuredContent));
}

/**
 * A full git sha or an ISO date: a value a result may name more than once (a revision and a
 * commit, two edits of the same second), not a text it repeats.
 */
const NAMES = /^([0-9a-f]{40}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)$/;

/**
 * The texts a result carries twice: every string of at least 16 characters, in its structured
 * content or its text contents, that is not a sha or a date and occurs more than once (docs/mcp.md,
 * "Results": nothing is sent twice).
 */
export function sentTwice(r: ReceivedResult): string[] {
  const seen = new Map<string, number>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.length >= 16 && !NAMES.test(v)) seen.set(v, (seen.get(v) ?? 0) + 1);
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(r.structuredContent);
  for (const c of (r.content ?? []) as Array<{ type: string; text?: string }>) if (c.type === 'text') walk(c.text);
  return [...seen].filter(([, n]) => n > 1).map(([s]) => s);
}
