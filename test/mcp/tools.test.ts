import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { AppliedSchema, ConflictSchema, ErrorResultSchema, OutcomeSchema, ProposedSchema, RejectedSchema } from '../../src/mcp/outcome-schemas.js';
import { errorResult } from '../../src/mcp/tool-result.js';
import { createCanvas } from '../../src/store/canvas-lifecycle.js';
import { insertNode } from '../../src/store/node-writes.js';
import type { Applied } from '../../src/store/outcome.js';
import { readCanvasText } from '../../src/store/read-canvas.js';
import type { Workspace } from '../../src/store/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, { type?: string; description?: string; pattern?: string; minLength?: number }>; required?: string[]; additionalProperties?: unknown };
  annotations?: { readOnlyHint?: boolean };
}

const COMMON_WRITE = ['idempotencyKey', 'ledger', 'run', 'step', 'why', 'workspace'];
const EDIT = [...COMMON_WRITE, 'base', 'require'];
const PAYLOAD = ['answered', 'question', 'section', 'text', 'xml'];

/** Each tool's arguments, exactly (the command line's names). */
const ARGUMENTS: Record<string, string[]> = {
  canvas_read: ['at', 'id', 'ledger', 'type', 'workspace'],
  canvas_history: ['ledger', 'node', 'workspace'],
  canvas_log: ['ledger', 'maxCount', 'workspace'],
  canvas_prompt: ['edits', 'ledger', 'workspace'],
  canvas_list_proposals: ['ledger', 'workspace'],
  canvas_insert: [...EDIT, 'after', 'into', ...PAYLOAD],
  canvas_replace: [...EDIT, 'node', ...PAYLOAD],
  canvas_remove: [...EDIT, 'node'],
  canvas_move: [...EDIT, 'node', 'after', 'into'],
  canvas_approve_proposal: [...COMMON_WRITE, 'proposalId'],
  canvas_reject_proposal: [...COMMON_WRITE, 'proposalId'],
  canvas_open: [...COMMON_WRITE, 'expectedValue', 'problem'],
  canvas_check: ['at', 'dryRun', 'ledger', 'run', 'step', 'workspace'],
  canvas_create: COMMON_WRITE,
  canvas_freeze: COMMON_WRITE,
  canvas_abandon: COMMON_WRITE,
  canvas_grant: [...COMMON_WRITE, 'role', 'who'],
  canvas_revoke: [...COMMON_WRITE, 'who'],
  canvas_list: ['unwrittenByRuns', 'workspace'],
  canvas_render: ['at', 'format', 'ledger', 'workspace'],
  canvas_watch: ['ledger', 'workspace'],
  canvas_unwatch: ['ledger', 'workspace'],
  canvas_inbox: ['ack', 'workspace'],
  canvas_edges: ['ledger', 'workspace'],
  canvas_search: ['ledger', 'limit', 'query', 'type', 'workspace'],
};
/** Tools that change only the caller's own watches, which have no history and so no reason. */
const WATCHES = new Set(['canvas_watch', 'canvas_unwatch', 'canvas_inbox']);
const WRITES = ['canvas_insert', 'canvas_replace', 'canvas_remove', 'canvas_move'];

describe('canvas mcp: the tools as a client lists them', () => {
  let ws: Workspace;
  let eve: McpSession;
  let tools: ListedTool[];

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-tools-');
    eve = await connectAs(ws, 'eve');
    tools = (await eve.client.listTools()).tools as ListedTool[];
  });

  afterAll(async () => {
    await eve.close();
  });

  it('lists exactly these tools, each with exactly the command line\'s argument names', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(ARGUMENTS).sort());
    for (const t of tools) {
      expect(Object.keys(t.inputSchema.properties ?? {}).sort(), t.name).toEqual([...ARGUMENTS[t.name]!].sort());
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
  });

  it('documents every argument, and requires the workspace, the ledger and (on writes) the reason', () => {
    for (const t of tools) {
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {})) {
        expect(p.description?.length ?? 0, `${t.name}.${name}`).toBeGreaterThan(20);
      }
      const required = t.inputSchema.required ?? [];
      // canvas_list and canvas_search are about every canvas, and the inbox spans every canvas the caller watches: they name none.
      expect(required, t.name).toEqual(expect.arrayContaining(['canvas_list', 'canvas_inbox', 'canvas_search'].includes(t.name) ? ['workspace'] : ['workspace', 'ledger']));
      // canvas_check writes with a reason of its own (the nodes, the model, the revision checked).
      if (t.annotations?.readOnlyHint !== true && t.name !== 'canvas_check' && !WATCHES.has(t.name)) expect(required, t.name).toContain('why');
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(80);
    }
  });

  it('leaves the reason to the store: `why` is a plain string in every schema, so a bad one is the rejected outcome', () => {
    for (const t of tools) {
      const why = t.inputSchema.properties?.why;
      if (!why) continue;
      expect(why.type).toBe('string');
      expect(why.pattern).toBeUndefined();
      expect(why.minLength).toBeUndefined();
    }
  });

  it('tells the agent the discipline in every node write: read first, the sha, one node, why, open questions, check the outcome', () => {
    for (const name of WRITES) {
      const d = tools.find((t) => t.name === name)!.description!;
      expect(d, name).toContain('canvas_read');
      expect(d, name).toContain('Canvas-Base');
      expect(d, name).toMatch(/one node per call/);
      expect(d, name).toMatch(/says why/);
      expect(d, name).toMatch(/never quietly answer an open <question>/);
      expect(d, name).toMatch(/`conflict`[^.]*NOT success/);
      expect(d, name).toMatch(/commenter/);
    }
    const reads = tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name).sort();
    expect(reads).toEqual(['canvas_edges', 'canvas_history', 'canvas_list', 'canvas_list_proposals', 'canvas_log', 'canvas_prompt', 'canvas_read', 'canvas_render', 'canvas_search']);
  });

  // canvas_prompt renders with src/render/text/render-prompt.ts, built on its own branch; this
  // runs once that file is here (and src/mcp/load-render-prompt.ts imports it by a literal path).
  it.skipIf(!existsSync(join(ROOT, 'src/render/text/render-prompt.ts')))('canvas_prompt gives the prompt text with the revision to write against', async () => {
    await createCanvas(ws, { ledger: 'p', why: 'prompt', author: 'eve' });
    const t = (await insertNode(ws, { ledger: 'p', into: 'root', payload: { question: 'Who owns it?' }, base: (await readCanvasText(ws, { ledger: 'p' })).revision, why: 'nobody does yet', author: 'eve' })) as Applied;
    const r = await eve.call('canvas_prompt', { workspace: ws.root, ledger: 'p', edits: 5 });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(t.revision);
    expect(r.text).toContain(t.node!);
    expect(r.text).toContain('Who owns it?');
    expect(r.text).toContain('nobody does yet');
  });
});

describe('canvas mcp: an Excalidraw figure comes as xml, as the other figure kinds do', () => {
  it('canvas_insert stores a scene laid out and checked, and refuses a javascript: link', async () => {
    const ws = tempWorkspace('canvas-mcp-excalidraw-');
    const eve = await connectAs(ws, 'eve');
    try {
      await createCanvas(ws, { ledger: 'x', why: 'sketches', author: 'eve' });
      const scene = (link: string | null) => JSON.stringify({ type: 'excalidraw', version: 2, elements: [{ id: 'r', type: 'rectangle', width: 10, height: 10, link }], appState: {}, files: {} });
      const xml = (link: string | null) => `<figure kind="excalidraw">${scene(link).replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</figure>`;
      const base = (await readCanvasText(ws, { ledger: 'x' })).revision;
      const ok = await eve.write('canvas_insert', { workspace: ws.root, ledger: 'x', into: 'root', xml: xml('https://example.com'), base, why: 'the sketch' });
      expect(ok.outcome).toBe('applied');
      expect((await readCanvasText(ws, { ledger: 'x' })).xml).toContain('kind="excalidraw">{\n  "type": "excalidraw",\n');
      const bad = await eve.write('canvas_insert', { workspace: ws.root, ledger: 'x', into: 'root', xml: xml('javascript:alert(1)'), base: (ok as Applied).revision, why: 'a bad link' });
      expect(bad).toMatchObject({ outcome: 'rejected', code: 'UNSAFE_SCENE' });
    } finally {
      await eve.close();
    }
  });
});

describe('the outcome schemas and the result mapping', () => {
  const sha = 'a'.repeat(40);
  const samples = {
    applied: { outcome: 'applied', revision: sha, node: 'b7', diff: [] },
    proposed: { outcome: 'proposed', proposalId: '0123456789', revision: sha },
    conflict: { outcome: 'conflict', code: 'STALE_BASE', node: 'b7', expectedRevision: sha, currentRevision: 'b'.repeat(40), diff: [] },
    rejected: { outcome: 'rejected', code: 'BAD_REASON', reason: 'reason must be a single line with no control characters', hint: 'one line' },
  };

  it('each outcome parses against its own schema only; the four are always distinguishable', () => {
    const schemas = { applied: AppliedSchema, proposed: ProposedSchema, conflict: ConflictSchema, rejected: RejectedSchema };
    for (const [name, sample] of Object.entries(samples)) {
      for (const [schemaName, schema] of Object.entries(schemas)) {
        expect(schema.safeParse(sample).success, `${name} against ${schemaName}`).toBe(name === schemaName);
      }
      expect(OutcomeSchema.parse(sample).outcome).toBe(name);
      expect(ErrorResultSchema.safeParse(sample).success).toBe(false);
    }
    // A conflict without both revisions, or an applied without a revision, is no outcome at all.
    expect(OutcomeSchema.safeParse({ ...samples.conflict, currentRevision: undefined }).success).toBe(false);
    expect(OutcomeSchema.safeParse({ outcome: 'applied', diff: [] }).success).toBe(false);
    expect(OutcomeSchema.safeParse({ outcome: 'ok' }).success).toBe(false);
  });

  it('no role is the error shape, not isError; only a fault of the server is isError; the error shape is also the structured content', async () => {
    const noRole = errorResult(new CanvasError('NO_ROLE', 'zed has no role on canvas r', 'ask leo'));
    expect(noRole.isError).toBe(false);
    expect(ErrorResultSchema.parse(JSON.parse((noRole.content[0] as { text: string }).text)).error.code).toBe('NO_ROLE');
    expect(noRole.structuredContent).toEqual(JSON.parse((noRole.content[0] as { text: string }).text));
    const quiet = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      for (const fault of [new CanvasError('GIT_FAILED', 'git broke', 'run canvas verify'), new CanvasError('LOCK_TIMEOUT', 'busy', 'retry'), new TypeError('a bug')]) {
        const r = errorResult(fault);
        expect(r.isError).toBe(true);
        expect(ErrorResultSchema.safeParse(JSON.parse((r.content[0] as { text: string }).text)).success).toBe(true);
        expect(ErrorResultSchema.safeParse(r.structuredContent).success).toBe(true);
      }
    } finally {
      process.stderr.write = quiet;
    }
  });
});
