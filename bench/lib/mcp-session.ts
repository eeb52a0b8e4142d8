// A typical agent session over MCP (docs/mcp.md, "The budget"): read a canvas, ten writes of
// which one is a conflict and one a proposal, one inbox. What the agent pays is every call's
// arguments and every result as received; what it would pay at least is the canvas as
// `canvas read` prints it and the payloads it writes. Shared by the mcp-tokens benchmark and the
// budget test (test/mcp/budget.test.ts), each with its own client and canvas.
import { grantRole } from '../../src/store/write/access-writes.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type ReceivedResult, resultTokens, sentTwice, tokensOf } from './mcp-tokens.js';

/** A connected client as the session needs it: one tool call. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ReceivedResult>;

/** What the session cost, in tokens, and what it saw. */
export interface SessionTokens {
  /** The canvas as `canvas read` prints it: the line Canvas-Base: and the XML. */
  canvasRead: number;
  /** The payloads of the ten writes (the text each writes). */
  payloads: number;
  /** Every result as received. */
  results: number;
  /** Every call's name and arguments, as the agent writes them. */
  calls: number;
  /** (results + calls) / (canvasRead + payloads): the target is at most 1.3. */
  ratio: number;
  /** The outcome of each write, in order. */
  outcomes: string[];
  /** Per call: its tool, and its result's and arguments' tokens. */
  steps: Array<{ tool: string; result: number; call: number }>;
  /** Texts a result carried twice (none is the rule). */
  twice: string[];
}

/** The session's own words: the ten payloads. */
const PAYLOADS = [
  'The cache key is the lockfile hash, so a dependency bump rebuilds the cache once.',
  'Tests run in four shards; the slowest shard sets the wall time.',
  'Should the nightly build keep the full matrix?',
  'Flaky tests are quarantined within a day and fixed within a week.',
  'The artifact store keeps builds for thirty days.',
  'Build times are reported per pull request in the summary comment.',
  'Parallel shards need the test database per shard, made from one snapshot.',
  'The release branch builds with the same cache as main.',
  'The lockfile hash misses changes to the toolchain, so the key adds the toolchain version.',
  'A shard that fails retries once before the build fails.',
];

/**
 * Run the session against a canvas the agent may edit, owned by `owner`, with a rival editor who
 * changes a node between the agent's writes. The agent is `agent` (its client's identity).
 *
 * @param call - the agent's client
 * @param ws - the workspace (for the rival's and the owner's writes, through the library)
 * @param ledger - the canvas
 * @param people - the owner's and the rival's identities (both may write)
 * @returns the tokens, the outcomes and anything sent twice
 */
export async function runSession(call: CallTool, ws: Workspace, ledger: string, people: { owner: string; rival: string; agent: string }): Promise<SessionTokens> {
  const steps: SessionTokens['steps'] = [];
  const twice: string[] = [];
  const outcomes: string[] = [];
  const step = async (tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await call(tool, args);
    if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r.content)}`);
    steps.push({ tool, result: resultTokens(r), call: tokensOf({ name: tool, arguments: args }) });
    twice.push(...sentTwice(r));
    return r.structuredContent as Record<string, unknown>;
  };
  const w = { workspace: ws.root, ledger };
  const read = (await step('canvas_read', w)) as { revision: string; xml: string };
  const texts = [...read.xml.matchAll(/<text id="([a-z][a-z0-9]*)" v="\d+">/g)].map((m) => m[1]!);
  if (texts.length < 8) throw new Error(`the session needs a canvas with 8 text nodes; ${ledger} has ${texts.length}`);
  let base = read.revision;
  const write = async (tool: string, args: Record<string, unknown>) => {
    const o = (await step(tool, { ...w, ...args })) as { outcome: string; revision?: string; currentRevision?: string };
    outcomes.push(o.outcome);
    if (o.outcome === 'applied') base = o.revision!;
    return o;
  };
  // Eight writes: inserts beside the nodes read, replaces of them, an open question.
  await write('canvas_insert', { after: texts[0], text: PAYLOADS[0], base, why: 'the cache key was undecided' });
  await write('canvas_replace', { node: texts[1], text: PAYLOADS[1], base, why: 'sharding was measured' });
  await write('canvas_insert', { after: texts[2], question: PAYLOADS[2], base, why: 'nobody owns the nightly matrix yet' });
  await write('canvas_insert', { after: texts[3], text: PAYLOADS[3], base, why: 'flakes block merges today' });
  await write('canvas_replace', { node: texts[4], text: PAYLOADS[4], base, why: 'storage costs were checked' });
  await write('canvas_insert', { after: texts[5], text: PAYLOADS[5], base, why: 'reviewers ask for the numbers' });
  await write('canvas_replace', { node: texts[6], text: PAYLOADS[6], base, why: 'shards shared one database' });
  await write('canvas_insert', { after: texts[7], text: PAYLOADS[7], base, why: 'release builds were cold' });
  // Another writer changes the node the agent is about to replace: a conflict.
  const rival = await replaceNode(ws, {
    ledger,
    node: texts[0]!,
    payload: { text: 'The cache is keyed by branch.' },
    base: (await readCanvasText(ws, { ledger })).revision,
    why: 'branches diverge',
    author: people.rival,
  });
  if (rival.outcome !== 'applied') throw new Error(`the rival's write was ${rival.outcome}`);
  const conflict = await write('canvas_replace', { node: texts[0], text: PAYLOADS[8], base, why: 'the toolchain changes the build too' });
  // The owner makes the agent a commenter: its next write is a proposal.
  const grant = await grantRole(ws, { ledger, who: people.agent, role: 'commenter', why: 'changes go through review now', author: people.owner });
  if (grant.outcome !== 'applied') throw new Error(`the grant was ${grant.outcome}`);
  await write('canvas_insert', { after: texts[1], text: PAYLOADS[9], base: conflict.currentRevision ?? base, why: 'one flaky shard fails the build' });
  await step('canvas_inbox', { workspace: ws.root });
  const printed = await readCanvasText(ws, { ledger, at: read.revision });
  const canvasRead = tokensOf(`Canvas-Base: ${printed.revision}\n${printed.xml}`);
  const payloads = PAYLOADS.reduce((n, p) => n + tokensOf(p), 0);
  const results = steps.reduce((n, s) => n + s.result, 0);
  const calls = steps.reduce((n, s) => n + s.call, 0);
  return { canvasRead, payloads, results, calls, ratio: (results + calls) / (canvasRead + payloads), outcomes, steps, twice };
}
