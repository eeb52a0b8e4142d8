import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../bench/coherence-eval/stand-in.js';
import { createMcpHttp } from '../../src/mcp/mcp-http.js';
import { serveCanvas, type RunningServer } from '../../src/serve/serve-canvas.js';
import { addAgentToken } from '../../src/store/index.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import type { Applied, Proposed } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession, SDKS, type ToolCall } from '../helpers/mcp-client.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';

interface ListedTool {
  name: string;
  outputSchema?: { type?: string; anyOf?: Array<{ required?: string[] }> };
  annotations?: Record<string, unknown>;
}

/** The two dialects the official clients validate with: draft-07 (the v1 SDK) and 2020-12 (the v2 SDK). */
const DIALECTS = { 'draft-07': new Ajv({ strict: false, allErrors: true }), '2020-12': new Ajv2020({ strict: false, allErrors: true }) };

const MARKDOWN = '# Faster builds\n\nBuilds take ten minutes.\n\n## Decision\n\n- cache the dependencies\n- run tests in parallel\n';

// The calls go to the MCP server at canvas serve's /mcp, in this process, with an agent token for
// each who: the same server (docs/mcp.md, "Over HTTP"), whose tool list the test holds equal to
// the one `canvas mcp` lists over stdio, so one process of `canvas mcp` per client is spawned
// instead of one per who.
describe.each(SDKS)('canvas mcp through the %s client: every tool declares an output schema and every answer validates against it', (sdk) => {
  let ws: Workspace;
  let standIn: StandIn;
  let server: RunningServer;
  let stdio: McpSession;
  let leo: McpSession;
  let cam: McpSession;
  let zed: McpSession;
  let tools: ListedTool[];
  /** Per tool: which kinds of answer were seen, each validated against the listed schema. */
  const seen = new Map<string, Set<'value' | 'refusal'>>();

  /** Validate an answer against its tool's listed output schema, in both dialects. */
  const validate = (name: string, r: ToolCall) => {
    const schema = tools.find((t) => t.name === name)!.outputSchema!;
    for (const [dialect, ajv] of Object.entries(DIALECTS)) {
      const check = ajv.compile(schema);
      expect(check(r.structured), `${name} (${dialect}): ${ajv.errorsText(check.errors)}: ${r.text}`).toBe(true);
    }
  };

  const note = (name: string, kind: 'value' | 'refusal') => {
    if (!seen.has(name)) seen.set(name, new Set());
    seen.get(name)!.add(kind);
  };

  /** A call that succeeds: its structured content validates, and an outcome is not a refusal. */
  const value = async (s: McpSession, name: string, args: Record<string, unknown>): Promise<ToolCall> => {
    const r = await s.call(name, { workspace: ws.root, ...args });
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    validate(name, r);
    expect(r.structured, `${name}: ${r.text}`).not.toHaveProperty('error');
    expect(['rejected', 'conflict'], `${name}: ${r.text}`).not.toContain((r.structured as { outcome?: string }).outcome);
    note(name, 'value');
    return r;
  };

  /** A call that is refused: the error shape, or the rejected or conflict outcome, validated all the same. */
  const refusal = async (s: McpSession, name: string, args: Record<string, unknown>): Promise<void> => {
    const r = await s.call(name, { workspace: ws.root, ...args });
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    validate(name, r);
    const refused = 'error' in r.structured! || ['rejected', 'conflict'].includes((r.structured as { outcome: string }).outcome);
    expect(refused, `${name}: ${r.text}`).toBe(true);
    note(name, 'refusal');
  };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-output-');
    standIn = await startStandIn(() => ({ content: { contradictions: [] } }));
    // canvas_check asks the stand-in, from the server in this process, until the file ends.
    process.env.CANVAS_MODEL_URL = standIn.url;
    process.env.CANVAS_MODEL = 'stand-in-1';
    const tokens = Object.fromEntries(await Promise.all(['leo', 'cam', 'zed'].map(async (who) => [who, (await addAgentToken(ws, who)).token] as const)));
    server = await serveCanvas(ws, { port: 0, author: AUTHOR, token: 'test-token-0123456789', rescanMs: 60_000, mcp: await createMcpHttp(ws) });
    const http = (who: string) => connectAs(ws, who, { sdk, http: { url: `${server.origin}/mcp`, token: tokens[who]! } });
    [stdio, leo, cam, zed] = await Promise.all([connectAs(ws, 'leo', { sdk }), http('leo'), http('cam'), http('zed')]);
    tools = (await leo.listTools()) as ListedTool[];
  });

  afterAll(async () => {
    await Promise.all([stdio?.close(), leo?.close(), cam?.close(), zed?.close()]);
    await server?.close();
    await standIn?.close();
    delete process.env.CANVAS_MODEL_URL;
    delete process.env.CANVAS_MODEL;
  });

  it('lists the same tools over HTTP as canvas mcp over stdio', async () => {
    expect(tools.length).toBeGreaterThan(20);
    expect(await stdio.listTools()).toEqual(tools);
  });

  it('lists an object output schema on every tool, one of whose branches is the error shape, and the annotations that differ from the defaults', () => {
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(
        t.outputSchema?.anyOf?.some((b) => b.required?.join() === 'error'),
        t.name,
      ).toBe(true);
    }
    const hint = (name: string, key: string) => tools.find((t) => t.name === name)?.annotations?.[key];
    // replace overwrites content (destructive, MCP's default); remove drops a node; insert repeated inserts again.
    expect([hint('canvas_replace', 'destructiveHint'), hint('canvas_remove', 'destructiveHint'), hint('canvas_insert', 'destructiveHint')]).toEqual([undefined, undefined, false]);
    expect(hint('canvas_insert', 'idempotentHint')).toBeUndefined();
    expect(hint('canvas_replace', 'idempotentHint')).toBe(true);
    expect(hint('canvas_read', 'readOnlyHint')).toBe(true);
    expect(hint('canvas_check', 'openWorldHint')).toBeUndefined();
    expect(hint('canvas_read', 'openWorldHint')).toBe(false);
  });

  it('every tool answers a value and a refusal that the client validates against the listed schema', async () => {
    const opened = (await value(leo, 'canvas_open', { ledger: 'o', problem: 'Builds are slow.', expectedValue: 'Builds take a minute.', why: 'a task starts' })).structured as unknown as Applied;
    await refusal(leo, 'canvas_open', { ledger: 'o', problem: 'again', expectedValue: 'again', why: 'twice' });
    await grantRole(ws, { ledger: 'o', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
    const [problem, expected] = opened.nodes!;

    for (const name of ['canvas_read', 'canvas_history', 'canvas_list_proposals', 'canvas_check', 'canvas_verify']) {
      await value(leo, name, { ledger: 'o' });
      await refusal(zed, name, { ledger: 'o' });
    }
    await value(leo, 'canvas_read', { ledger: 'o', id: [problem] });
    for (const format of ['html', 'comment', 'text', 'done']) await value(leo, 'canvas_read', { ledger: 'o', format });
    await value(leo, 'canvas_history', { ledger: 'o', node: problem });
    await refusal(leo, 'canvas_history', { ledger: 'o', node: 'zz99' });

    let base = (await leo.read('o')).base;
    const inserted = (await value(leo, 'canvas_insert', { ledger: 'o', after: expected, section: 'Notes', base, why: 'a place for notes' })).structured as unknown as Applied;
    await refusal(leo, 'canvas_insert', { ledger: 'o', after: expected, text: 'x', base, why: 'two\nlines' });
    base = inserted.revision;
    const replaced = (await value(leo, 'canvas_replace', { ledger: 'o', node: expected, text: 'Builds take under a minute.', base, why: 'the target is tighter' })).structured as unknown as Applied;
    await refusal(zed, 'canvas_replace', { ledger: 'o', node: expected, text: 'y', base, why: 'no role' });
    const moved = (await value(leo, 'canvas_move', { ledger: 'o', node: inserted.node, into: 'root', base: replaced.revision, why: 'notes come first' })).structured as unknown as Applied;
    await refusal(leo, 'canvas_move', { ledger: 'o', node: inserted.node, into: inserted.node, base: moved.revision, why: 'into itself' });

    const p1 = (await value(cam, 'canvas_replace', { ledger: 'o', node: problem, text: 'Builds are slow on CI.', base: moved.revision, why: 'only CI is slow' })).structured as unknown as Proposed;
    const p2 = (await value(cam, 'canvas_insert', { ledger: 'o', after: problem, text: 'Local builds are fine.', base: moved.revision, why: 'for contrast' })).structured as unknown as Proposed;
    await value(leo, 'canvas_approve_proposal', { ledger: 'o', proposalId: p1.proposalId, why: 'true' });
    await refusal(leo, 'canvas_approve_proposal', { ledger: 'o', proposalId: p1.proposalId, why: 'twice' });
    await value(leo, 'canvas_reject_proposal', { ledger: 'o', proposalId: p2.proposalId, why: 'not needed' });
    await refusal(cam, 'canvas_reject_proposal', { ledger: 'o', proposalId: p2.proposalId, why: 'a commenter cannot decide' });

    base = (await leo.read('o')).base;
    await value(leo, 'canvas_remove', { ledger: 'o', node: inserted.node, base, why: 'the notes went elsewhere' });
    await refusal(leo, 'canvas_remove', { ledger: 'o', node: inserted.node, base, why: 'again' });

    await value(leo, 'canvas_list', {});
    await refusal(leo, 'canvas_list', { workspace: '/nonexistent' });
    await value(leo, 'canvas_edges', { ledger: 'o' });
    await refusal(zed, 'canvas_edges', { ledger: 'o' });
    await value(leo, 'canvas_create', { ledger: 'c', why: 'another task' });
    await refusal(leo, 'canvas_create', { ledger: 'c', why: 'again' });
    await value(leo, 'canvas_grant', { ledger: 'c', who: 'cam', role: 'viewer', why: 'cam reads' });
    await refusal(cam, 'canvas_grant', { ledger: 'c', who: 'cam', role: 'owner', why: 'promote myself' });
    await value(leo, 'canvas_revoke', { ledger: 'c', who: 'cam', why: 'cam is done' });
    await refusal(leo, 'canvas_revoke', { ledger: 'c', who: 'cam', why: 'again' });
    await value(leo, 'canvas_import', { ledger: 'i', markdown: MARKDOWN, why: 'the decision record' });
    await refusal(leo, 'canvas_import', { ledger: 'i', markdown: MARKDOWN, why: 'again' });
    await value(leo, 'canvas_freeze', { ledger: 'o', why: 'builds are fast now', withDone: true });
    await refusal(cam, 'canvas_freeze', { ledger: 'o', why: 'a commenter cannot end it' });
    await value(leo, 'canvas_abandon', { ledger: 'c', why: 'folded into o' });
    await refusal(zed, 'canvas_abandon', { ledger: 'c', why: 'no role' });
    await value(cam, 'canvas_watch', { ledger: 'o' });
    await refusal(zed, 'canvas_watch', { ledger: 'o' });
    await value(cam, 'canvas_inbox', {});
    await refusal(cam, 'canvas_inbox', { ack: { o: 'not a revision' } });
    await value(cam, 'canvas_unwatch', { ledger: 'o' });
    await refusal(cam, 'canvas_unwatch', { ledger: 'o' });
    await value(leo, 'canvas_search', { query: 'builds' });
    await refusal(leo, 'canvas_search', { query: ' ' });

    for (const t of tools) expect([...(seen.get(t.name) ?? [])].sort(), t.name).toEqual(['refusal', 'value']);
  });
});
