import type { McpServer } from '@modelcontextprotocol/server';
import { abandonCanvas, createCanvas, freezeCanvas, openCanvas, readSnapshot } from '../store/index.js';
import { authorOfCall } from './author-of-call.js';
import { bool, str } from './json-schema.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { CREATE_OUTCOME, FREEZE_OUTCOME, PLAIN_OUTCOME } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { ADDS, WRITE } from './tool-annotations.js';
import { WRITE as WRITE_ARGS, WRITE_REQUIRED } from './tool-arguments.js';

/** How `canvas_open`'s refusals name the two values: as this tool's arguments, never as flags. */
const SOURCES = { problem: '`problem`', expectedValue: '`expectedValue`' };

interface LifecycleArgs {
  ledger: string;
  why: string;
  idempotencyKey?: string;
  step?: string;
  run?: string;
}

/**
 * Register the lifecycle tools: canvas_create, canvas_open, canvas_import, canvas_freeze and
 * canvas_abandon (docs/mcp.md "The tools"). Each calls the store's function as the server's
 * identity, as the command of the same name does: the creator becomes the canvas's owner; a value
 * `canvas_open` is not given is read from the ledger row (docs/store.md, "The ledger row");
 * `canvas_import` takes the Markdown text itself, never a path (docs/import.md); an ending needs
 * editor or owner (docs/store.md, "Endings"), and a freeze can bring the done artifact of its
 * own revision (docs/projections.md, "The done artifact").
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerLifecycleTools(server: McpServer, ctx: ServerContext): void {
  const common = (a: LifecycleArgs) => ({ ledger: a.ledger, why: a.why, author: authorOfCall(ctx.who, a.step, a.run), idempotencyKey: a.idempotencyKey });

  registerCanvasTool(
    server,
    ctx,
    'canvas_create',
    {
      description: 'Create an empty canvas (the root alone); you become its owner.',
      args: { properties: WRITE_ARGS, required: WRITE_REQUIRED },
      result: PLAIN_OUTCOME,
      // Creating it again is CANVAS_EXISTS: nothing more is written.
      annotations: WRITE,
    },
    async (a: LifecycleArgs) => createCanvas(ctx.ws, common(a)),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_open',
    {
      description: "Create a canvas whose first two texts are problem and expectedValue (each left out is read from the task's ledger row); you become its owner. The outcome's nodes are their ids.",
      args: { properties: { ...WRITE_ARGS, problem: str, expectedValue: str }, required: WRITE_REQUIRED },
      result: CREATE_OUTCOME,
      annotations: WRITE,
    },
    async (a: LifecycleArgs & { problem?: string; expectedValue?: string }) => openCanvas(ctx.ws, { ...common(a), problem: a.problem, expectedValue: a.expectedValue }, SOURCES),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_import',
    {
      description:
        "Create a canvas from a Markdown decision record, given as its text (markdown), one commit per node; you become its owner. The outcome's nodes are the ids in document order; flattened, what was kept as plain text.",
      args: { properties: { ledger: str, why: str, markdown: str, step: str, run: str }, required: ['ledger', 'why', 'markdown'] },
      result: CREATE_OUTCOME,
      annotations: WRITE,
    },
    async (a: { ledger: string; why: string; markdown: string; step?: string; run?: string }) => {
      // Lazy: the Markdown parser is loaded only by an import.
      const { importMarkdown } = await import('../import/import-markdown.js');
      const r = await importMarkdown(ctx.ws, { ledger: a.ledger, markdown: a.markdown, why: a.why, author: authorOfCall(ctx.who, a.step, a.run) });
      return { outcome: 'applied' as const, revision: r.revision, node: null, diff: [], nodes: r.nodes.map((n) => n.id), flattened: r.flattened.map((f) => ({ line: f.line, what: f.what })) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_freeze',
    {
      description: 'Record that the work is done: one commit naming no node; why is the final report. withDone: the outcome brings the done artifact of the frozen revision.',
      args: { properties: { ...WRITE_ARGS, withDone: bool }, required: WRITE_REQUIRED },
      result: FREEZE_OUTCOME,
      // Each call records one more ending (the latest is the one shown).
      annotations: ADDS,
    },
    async (a: LifecycleArgs & { withDone?: boolean }) => {
      const outcome = await freezeCanvas(ctx.ws, common(a));
      if (a.withDone !== true || outcome.outcome !== 'applied') return outcome;
      // The artifact of the freeze's own revision, as `canvas freeze --with-done --json` gives it.
      const [snapshot, { doneArtifact }] = await Promise.all([readSnapshot(ctx.ws, { ledger: a.ledger, at: outcome.revision }), import('../render/done/done-artifact.js')]);
      return { ...outcome, done: doneArtifact(snapshot) };
    },
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_abandon',
    {
      description: 'Record that the work was given up: one commit naming no node; why says why.',
      args: { properties: WRITE_ARGS, required: WRITE_REQUIRED },
      result: PLAIN_OUTCOME,
      annotations: ADDS,
    },
    async (a: LifecycleArgs) => abandonCanvas(ctx.ws, common(a)),
  );
}
