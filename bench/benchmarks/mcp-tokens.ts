// What the MCP surface costs a model, in o200k_base tokens (docs/mcp.md, "The budget"), beside
// the two official reference servers started in the same run: `tools/list` of `canvas mcp`
// (with its instructions) and of @modelcontextprotocol/server-filesystem and server-memory, with
// and without output schemas, and `prompts/list` (what a host shows as slash commands, counted in
// both totals); and a typical agent session against a 200-node canvas (read it,
// ten writes of which one conflict and one proposal, one inbox) against the canvas read and the
// writes' payloads. Token counts are deterministic: quick mode counts the same.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { type BenchContext, type BenchResult, cliCommand, cliEnv, copyWorkspace } from '../lib/context.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { stats } from '../lib/measure.js';
import { runSession, type SessionTokens } from '../lib/mcp-session.js';
import { countListing, type ListedTool, type ListingTokens, tokensOf } from '../lib/mcp-tokens.js';
import { sessionWorkspace } from '../lib/workspaces.js';

/** The budgets (docs/mcp.md, "The budget"). */
const MODEL_VISIBLE = 4000;
const WITH_OUTPUT = 8000;
const SESSION = 1.3;

/** A stdio server's listing through the v1 client (the 2025-11-25 handshake): its tools, its prompts (none when it offers none), its instructions. */
async function listingOf(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ tools: ListedTool[]; prompts: unknown[]; instructions: string | undefined }> {
  const client = new Client({ name: 'canvas-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    const prompts = client.getServerCapabilities()?.prompts ? (await client.listPrompts()).prompts : [];
    return { tools: tools as ListedTool[], prompts, instructions: client.getInstructions() };
  } finally {
    await client.close();
  }
}

const n = (x: number) => x.toLocaleString('en-US');
const said = (name: string, t: ListingTokens, total: number) => `${name} ${n(total)} (${t.tools} tools, ${t.perTool}/tool)`;

/** The listings of canvas mcp and the reference servers, and the session through both official clients. */
export async function mcpTokens(ctx: BenchContext): Promise<BenchResult[]> {
  const [node, pre] = cliCommand(ctx);
  const empty = join(ctx.scratch, 'mcp-tokens-ws');
  mkdirSync(empty, { recursive: true });
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const modules = join(ctx.root, 'node_modules', '@modelcontextprotocol');
  const canvas = await listingOf(node, [...pre, 'mcp', '--as', 'agent', '--workspace', empty], env);
  const filesystem = await listingOf(node, [join(modules, 'server-filesystem', 'dist', 'index.js'), empty], env);
  const memory = await listingOf(node, [join(modules, 'server-memory', 'dist', 'index.js')], { ...env, MEMORY_FILE_PATH: join(ctx.scratch, 'memory.jsonl') });
  const c = countListing(canvas.tools, canvas.instructions);
  const f = countListing(filesystem.tools, filesystem.instructions);
  const m = countListing(memory.tools, memory.instructions);
  // The canvas's instructions are part of its surface: every tool relies on them. So is its
  // prompt's listing, which a host shows (and may send) beside the tools.
  const prompts = canvas.prompts.length === 0 ? 0 : tokensOf(canvas.prompts);
  const visible = c.modelVisible + c.instructions + prompts;
  const all = c.withOutputSchemas + c.instructions + prompts;
  const references = (pick: (t: ListingTokens) => number) => `${said('filesystem', f, pick(f) + f.instructions)}; ${said('memory', m, pick(m) + m.instructions)}`;

  // The session: a 200-node canvas (quick: the same), owned by the generator's author.
  const generated = await generateWorkspace(sessionWorkspace(), ctx.root, ctx.log);
  const sessions: Record<string, SessionTokens> = {};
  for (const sdk of ['v2', 'v1'] as const) {
    const ws = copyWorkspace(ctx, generated.ws, `mcp-session-${sdk}`);
    const owner = GEN_AUTHOR.split(' ')[0]!;
    for (const who of ['agent', 'rival']) {
      const g = await grantRole(ws, { ledger: 'big', who, role: 'editor', why: 'the session writes', author: GEN_AUTHOR });
      if (g.outcome !== 'applied') throw new Error(JSON.stringify(g));
    }
    const params = { command: node, args: [...pre, 'mcp', '--as', 'agent', '--workspace', ws.root], env: cliEnv(ws, 'agent') as Record<string, string>, stderr: 'pipe' as const };
    const client = sdk === 'v2' ? new V2Client({ name: 'canvas-bench', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }) : new Client({ name: 'canvas-bench', version: '0.0.0' });
    await (sdk === 'v2' ? (client as V2Client).connect(new V2StdioClientTransport(params)) : (client as Client).connect(new StdioClientTransport(params)));
    try {
      sessions[sdk] = await runSession((name, args) => (client as Client).callTool({ name, arguments: args }) as never, ws, 'big', { owner, rival: 'rival', agent: 'agent' });
    } finally {
      await client.close();
    }
  }
  const s = sessions.v2!;
  const expected = ['applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'conflict', 'proposed'];
  const sessionOk = Object.values(sessions).every((x) => x.ratio <= SESSION && x.twice.length === 0 && JSON.stringify(x.outcomes) === JSON.stringify(expected));
  return [
    {
      name: 'mcp-tokens: tools/list, model-visible',
      measured: 'canvas mcp: name, description, inputSchema, annotations of every tool, the instructions and prompts/list (o200k_base)',
      baseline: '@modelcontextprotocol/server-filesystem, the larger reference server, started in this run',
      target: `<= ${n(MODEL_VISIBLE)} tokens`,
      ratio: stats([visible / (f.modelVisible + f.instructions)]),
      pass: visible <= MODEL_VISIBLE,
      figure: `canvas ${n(visible)} (${c.tools} tools, ${c.perTool}/tool, instructions ${n(c.instructions)}, ${canvas.prompts.length} prompt ${n(prompts)}); ${references((t) => t.modelVisible)}`,
      detail: { canvas: { ...c, prompts }, filesystem: f, memory: m },
    },
    {
      name: 'mcp-tokens: tools/list, with output schemas',
      measured: 'canvas mcp: the whole listing, output schemas included, the instructions and prompts/list (o200k_base)',
      baseline: '@modelcontextprotocol/server-filesystem, started in this run',
      target: `<= ${n(WITH_OUTPUT)} tokens`,
      ratio: stats([all / (f.withOutputSchemas + f.instructions)]),
      pass: all <= WITH_OUTPUT,
      figure: `canvas ${n(all)}; ${references((t) => t.withOutputSchemas)}`,
    },
    {
      name: 'mcp-tokens: agent session',
      measured: 'read a 200-node canvas, ten writes (one conflict, one proposal), one inbox: every call and every result, through the v2 client (2026-07-28) and the v1 client (2025-11-25)',
      baseline: 'the canvas as canvas read prints it, plus the ten payloads',
      target: `<= ${SESSION}x, nothing sent twice`,
      ratio: stats([s.ratio]),
      pass: sessionOk,
      figure: `2026-07-28 ${n(s.results + s.calls)} tokens (results ${n(s.results)}, calls ${n(s.calls)}) vs ${n(s.canvasRead + s.payloads)} (read ${n(s.canvasRead)}, payloads ${n(s.payloads)}): ${s.ratio.toFixed(3)}x; 2025-11-25 ${sessions.v1!.ratio.toFixed(3)}x`,
      detail: { sessions },
    },
  ];
}
