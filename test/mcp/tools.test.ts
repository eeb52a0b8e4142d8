import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { errorResult } from '../../src/mcp/tool-result.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { properties?: Record<string, { type?: string; description?: string; pattern?: string; minLength?: number }>; required?: string[]; additionalProperties?: unknown };
  annotations?: { readOnlyHint?: boolean };
}

const COMMON_WRITE = ['idempotencyKey', 'ledger', 'run', 'step', 'why', 'workspace'];
const EDIT = [...COMMON_WRITE, 'base', 'require'];
const PAYLOAD = ['answered', 'question', 'section', 'text', 'xml'];

/** Each tool's arguments, exactly (the command line's names). */
const ARGUMENTS: Record<string, string[]> = {
  canvas_read: ['at', 'edits', 'format', 'id', 'ledger', 'type', 'workspace'],
  canvas_history: ['ledger', 'limit', 'node', 'workspace'],
  canvas_list_proposals: ['ledger', 'workspace'],
  canvas_insert: [...EDIT, 'after', 'into', ...PAYLOAD],
  canvas_replace: [...EDIT, 'node', ...PAYLOAD],
  canvas_remove: [...EDIT, 'node'],
  canvas_move: [...EDIT, 'node', 'after', 'into'],
  canvas_approve_proposal: [...COMMON_WRITE, 'proposalId'],
  canvas_reject_proposal: [...COMMON_WRITE, 'proposalId'],
  canvas_open: [...COMMON_WRITE, 'expectedValue', 'problem'],
  canvas_import: ['ledger', 'markdown', 'run', 'step', 'why', 'workspace'],
  canvas_check: ['at', 'dryRun', 'ledger', 'run', 'step', 'workspace'],
  canvas_create: COMMON_WRITE,
  canvas_freeze: [...COMMON_WRITE, 'withDone'],
  canvas_abandon: COMMON_WRITE,
  canvas_grant: [...COMMON_WRITE, 'role', 'who'],
  canvas_revoke: [...COMMON_WRITE, 'who'],
  canvas_list: ['unwrittenByRuns', 'workspace'],
  canvas_watch: ['ledger', 'workspace'],
  canvas_unwatch: ['ledger', 'workspace'],
  canvas_inbox: ['ack', 'workspace'],
  canvas_edges: ['ledger', 'workspace'],
  canvas_search: ['ledger', 'limit', 'query', 'type', 'workspace'],
  canvas_verify: ['ledger', 'workspace'],
};
/** Tools that change only the caller's own watches, which have no history and so no reason. */
const WATCHES = new Set(['canvas_watch', 'canvas_unwatch', 'canvas_inbox']);

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

  it("lists exactly these tools, each with exactly the command line's argument names", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(ARGUMENTS).sort());
    for (const t of tools) {
      expect(Object.keys(t.inputSchema.properties ?? {}).sort(), t.name).toEqual([...ARGUMENTS[t.name]!].sort());
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
  });

  it('requires the workspace, the ledger and (on writes) the reason, and says what each tool does', () => {
    for (const t of tools) {
      const required = t.inputSchema.required ?? [];
      // canvas_list and canvas_search are about every canvas, and the inbox spans every canvas the caller watches: they name none.
      expect(required, t.name).toEqual(expect.arrayContaining(['canvas_list', 'canvas_inbox', 'canvas_search'].includes(t.name) ? ['workspace'] : ['workspace', 'ledger']));
      // canvas_check writes with a reason of its own (the nodes, the model, the revision checked).
      if (t.annotations?.readOnlyHint !== true && t.name !== 'canvas_check' && !WATCHES.has(t.name)) expect(required, t.name).toContain('why');
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(30);
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

  it('says the discipline once, in the instructions: read first, the revision, one node, why, open questions, check the outcome', () => {
    const said = eve.client.getInstructions() ?? '';
    expect(said).toContain('canvas_read');
    expect(said).toMatch(/`revision` as `base`/);
    expect(said).toMatch(/one node per call/);
    expect(said).toMatch(/says why/);
    expect(said).toMatch(/never quietly answer an open <question>/);
    expect(said).toMatch(/conflict[^.]*not success/);
    expect(said).toMatch(/commenter/);
    expect(said).toContain('"eve"');
    // Said once: no description repeats a rule the instructions give.
    for (const t of tools) expect(t.description, t.name).not.toMatch(/one node per call|quietly answer|not success/);
    const reads = tools
      .filter((t) => t.annotations?.readOnlyHint === true)
      .map((t) => t.name)
      .sort();
    expect(reads).toEqual(['canvas_edges', 'canvas_history', 'canvas_list', 'canvas_list_proposals', 'canvas_read', 'canvas_search', 'canvas_verify']);
  });

  it('canvas_read with format text gives the prompt with the revision to write against', async () => {
    await createCanvas(ws, { ledger: 'p', why: 'prompt', author: 'eve' });
    const t = (await insertNode(ws, {
      ledger: 'p',
      into: 'root',
      payload: { question: 'Who owns it?' },
      base: (await readCanvasText(ws, { ledger: 'p' })).revision,
      why: 'nobody does yet',
      author: 'eve',
    })) as Applied;
    const r = await eve.call('canvas_read', { workspace: ws.root, ledger: 'p', format: 'text', edits: 5 });
    expect(r.isError, r.text).toBe(false);
    const { content, revision } = r.structured as { content: string; revision: string };
    expect(revision).toBe(t.revision);
    expect(content).toContain(t.revision);
    expect(content).toContain(t.node!);
    expect(content).toContain('Who owns it?');
    expect(content).toContain('nobody does yet');
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

describe('the result mapping', () => {
  it('no role is the error shape, not isError, and sent once; a fault of the server is isError with its text alone', async () => {
    const noRole = errorResult(new CanvasError('NO_ROLE', 'zed has no role on canvas r', 'ask leo'), '2026-07-28');
    expect(noRole).toEqual({ content: [], structuredContent: { error: { code: 'NO_ROLE', message: 'zed has no role on canvas r', hint: 'ask leo' } }, isError: false });
    // A client on a revision without structured content reads it as text too.
    const old = errorResult(new CanvasError('NO_ROLE', 'zed has no role on canvas r', 'ask leo'), '2025-03-26');
    expect(JSON.parse((old.content[0] as { text: string }).text)).toEqual(old.structuredContent);
    const quiet = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      for (const fault of [new CanvasError('GIT_FAILED', 'git broke', 'run canvas verify'), new CanvasError('LOCK_TIMEOUT', 'busy', 'retry'), new TypeError('a bug')]) {
        const r = errorResult(fault, '2026-07-28');
        expect(r.isError).toBe(true);
        expect(r.structuredContent).toBeUndefined();
        const { error } = JSON.parse((r.content[0] as { text: string }).text) as { error: { code: string; hint: string } };
        expect(error.code).toMatch(/^[A-Z_]+$/);
        expect(error.hint).not.toMatch(/--[a-z]/);
      }
    } finally {
      process.stderr.write = quiet;
    }
  });
});
