import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type StandIn, startStandIn } from '../../bench/coherence-eval/stand-in.js';
import { objectUnion } from '../../src/mcp/object-union.js';
import { EdgesResultSchema } from '../../src/mcp/register-edges-tool.js';
import { ErrorResultSchema, OutcomeSchema } from '../../src/mcp/outcome-schemas.js';
import { CheckReportSchema, HistoryResultSchema, ListResultSchema, LogResultSchema, PromptResultSchema, ProposalsResultSchema, ReadResultSchema, RenderResultSchema } from '../../src/mcp/result-schemas.js';
import { SearchResultSchema } from '../../src/mcp/search-result-schema.js';
import { InboxResultSchema, WatchResultSchema } from '../../src/mcp/watch-result-schemas.js';
import { grantRole } from '../../src/store/access-writes.js';
import type { Applied, Proposed } from '../../src/store/outcome.js';
import type { Workspace } from '../../src/store/workspace.js';
import { connectAs, type McpSession, type ToolCall } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

interface ListedTool {
  name: string;
  outputSchema?: { type?: string; anyOf?: Array<{ required?: string[] }> };
  annotations?: Record<string, unknown>;
}

/** What each tool's successful structured content must parse as (beside the client's check). */
const VALUE: Record<string, z.ZodType> = {
  canvas_read: ReadResultSchema,
  canvas_history: HistoryResultSchema,
  canvas_log: LogResultSchema,
  canvas_prompt: PromptResultSchema,
  canvas_list_proposals: ProposalsResultSchema,
  canvas_check: CheckReportSchema,
  canvas_list: ListResultSchema,
  canvas_render: RenderResultSchema,
  canvas_watch: WatchResultSchema,
  canvas_unwatch: WatchResultSchema,
  canvas_inbox: InboxResultSchema,
  canvas_edges: EdgesResultSchema,
  canvas_search: SearchResultSchema,
};

describe('objectUnion: one object schema for several result shapes', () => {
  const A = z.strictObject({ outcome: z.literal('applied'), revision: z.string() });
  const E = z.strictObject({ error: z.strictObject({ code: z.string() }) });
  const joined = objectUnion([A, E]);
  const json = z.toJSONSchema(joined, { target: 'draft-7', io: 'output' });
  const validate = new AjvJsonSchemaValidator().getValidator(json as unknown as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
  const cases: Array<[unknown, boolean]> = [
    [{ outcome: 'applied', revision: 'abc' }, true],
    [{ error: { code: 'NO_ROLE' } }, true],
    [{ outcome: 'applied' }, false],
    [{ outcome: 'applied', revision: 'abc', error: { code: 'X' } }, false],
    [{ outcome: 'done', revision: 'abc' }, false],
    [{}, false],
  ];

  it('is a zod object with an object JSON Schema, as MCP and the SDK want an output schema', () => {
    expect(joined._zod.def.type).toBe('object');
    expect(json.type).toBe('object');
    expect(json.anyOf).toHaveLength(2);
  });

  it('accepts exactly what one branch accepts: in zod (the server side) and in JSON Schema (the client side)', () => {
    for (const [value, ok] of cases) {
      expect(joined.safeParse(value).success, JSON.stringify(value)).toBe(ok);
      expect(validate(value).valid, JSON.stringify(value)).toBe(ok);
    }
  });
});

describe('canvas mcp: every tool declares an output schema and answers structured content that validates against it', () => {
  let ws: Workspace;
  let standIn: StandIn;
  let leo: McpSession;
  let cam: McpSession;
  let zed: McpSession;
  let tools: ListedTool[];
  /** Per tool: which kinds of answer were seen, each validated by the client. */
  const seen = new Map<string, Set<'value' | 'refusal'>>();

  const note = (name: string, kind: 'value' | 'refusal') => {
    if (!seen.has(name)) seen.set(name, new Set());
    seen.get(name)!.add(kind);
  };

  /** A call that succeeds: its structured content is the tool's value (or an outcome), and the text says the same. */
  const value = async (s: McpSession, name: string, args: Record<string, unknown>): Promise<ToolCall> => {
    const r = await s.call(name, { workspace: ws.root, ...args });
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    const schema = VALUE[name] ?? OutcomeSchema;
    expect(schema.safeParse(r.structured).success, `${name}: ${r.text}`).toBe(true);
    if (schema === OutcomeSchema) expect((r.structured as { outcome: string }).outcome, `${name}: ${r.text}`).not.toBe('rejected');
    note(name, 'value');
    return r;
  };

  /** A call that is refused: the error shape, or the rejected or conflict outcome, validated all the same. */
  const refusal = async (s: McpSession, name: string, args: Record<string, unknown>): Promise<void> => {
    const r = await s.call(name, { workspace: ws.root, ...args });
    const refused = ErrorResultSchema.safeParse(r.structured).success || (OutcomeSchema.safeParse(r.structured).success && ['rejected', 'conflict'].includes((r.structured as { outcome: string }).outcome));
    expect(refused, `${name}: ${r.text}`).toBe(true);
    note(name, 'refusal');
  };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-output-');
    standIn = await startStandIn(() => ({ content: { contradictions: [] } }));
    process.env.CANVAS_MODEL_URL = standIn.url;
    process.env.CANVAS_MODEL = 'stand-in-1';
    try {
      [leo, cam, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'cam'), connectAs(ws, 'zed')]);
    } finally {
      delete process.env.CANVAS_MODEL_URL;
      delete process.env.CANVAS_MODEL;
    }
    tools = (await leo.client.listTools()).tools as ListedTool[];
  });

  afterAll(async () => {
    await Promise.all([leo?.close(), cam?.close(), zed?.close()]);
    await standIn?.close();
  });

  it('lists an object output schema on every tool, one of whose branches is the error shape, and all four annotations', () => {
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.outputSchema?.anyOf?.some((b) => b.required?.join() === 'error'), t.name).toBe(true);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) expect(typeof t.annotations?.[hint], `${t.name}.${hint}`).toBe('boolean');
    }
    const hint = (name: string, key: string) => tools.find((t) => t.name === name)?.annotations?.[key];
    // replace overwrites content; remove drops a node; insert repeated inserts again.
    expect([hint('canvas_replace', 'destructiveHint'), hint('canvas_remove', 'destructiveHint'), hint('canvas_insert', 'destructiveHint')]).toEqual([true, true, false]);
    expect(hint('canvas_insert', 'idempotentHint')).toBe(false);
    expect(hint('canvas_check', 'openWorldHint')).toBe(true);
  });

  it('every tool answers a value and a refusal that the client validates against the listed schema', async () => {
    const opened = (await value(leo, 'canvas_open', { ledger: 'o', problem: 'Builds are slow.', expectedValue: 'Builds take a minute.', why: 'a task starts' })).structured as unknown as Applied;
    await refusal(leo, 'canvas_open', { ledger: 'o', problem: 'again', expectedValue: 'again', why: 'twice' });
    await grantRole(ws, { ledger: 'o', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
    const [problem, expected] = opened.nodes!;

    for (const name of ['canvas_read', 'canvas_log', 'canvas_prompt', 'canvas_list_proposals', 'canvas_check']) {
      await value(leo, name, { ledger: 'o' });
      await refusal(zed, name, { ledger: 'o' });
    }
    await value(leo, 'canvas_read', { ledger: 'o', id: [problem] });
    await value(leo, 'canvas_history', { ledger: 'o', node: problem });
    await refusal(leo, 'canvas_history', { ledger: 'o', node: 'zz99' });

    let base = ((await leo.read('o')).base);
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
    for (const format of ['html', 'comment', 'text']) await value(leo, 'canvas_render', { ledger: 'o', format });
    await refusal(zed, 'canvas_render', { ledger: 'o', format: 'text' });
    await value(leo, 'canvas_edges', { ledger: 'o' });
    await refusal(zed, 'canvas_edges', { ledger: 'o' });
    await value(leo, 'canvas_create', { ledger: 'c', why: 'another task' });
    await refusal(leo, 'canvas_create', { ledger: 'c', why: 'again' });
    await value(leo, 'canvas_grant', { ledger: 'c', who: 'cam', role: 'viewer', why: 'cam reads' });
    await refusal(cam, 'canvas_grant', { ledger: 'c', who: 'cam', role: 'owner', why: 'promote myself' });
    await value(leo, 'canvas_revoke', { ledger: 'c', who: 'cam', why: 'cam is done' });
    await refusal(leo, 'canvas_revoke', { ledger: 'c', who: 'cam', why: 'again' });
    await value(leo, 'canvas_freeze', { ledger: 'o', why: 'builds are fast now' });
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
