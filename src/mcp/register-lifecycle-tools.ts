import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { abandonCanvas, createCanvas, freezeCanvas, openCanvas } from '../store/canvas-lifecycle.js';
import { authorOfCall } from './author-of-call.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import type { ServerContext } from './server-context.js';
import { WRITE } from './tool-annotations.js';
import { writeArgs } from './tool-arguments.js';

const problemArg = z
  .string()
  .optional()
  .describe('The problem the task exists to solve: the first text node. Leave it out to take "problem" from the ledger row state/ledger/<ledger>.json.');

const expectedValueArg = z
  .string()
  .optional()
  .describe(
    'What is expected when the task is done: the second text node. Leave it out to take "expected_value" (or "expectedValue", "expected-value") from the ledger row.',
  );

/** How `canvas_open`'s refusals name the two values: as this tool's arguments, never as flags. */
const SOURCES = { problem: '`problem`', expectedValue: '`expectedValue`' };

/** What every write tool's description says of its result. */
const OUTCOME =
  'Result: the outcome as structured content and as JSON text: {"outcome":"applied","revision","node":null,"diff":[]} or {"outcome":"rejected","code","reason","hint"}.';

/**
 * Register the lifecycle tools: canvas_open, canvas_create, canvas_freeze and canvas_abandon
 * (docs/mcp.md "The tools"). Each calls one store function as the server's identity: the creator
 * becomes the canvas's owner; a value `canvas_open` is not given is read from the ledger row
 * (docs/store.md, "The ledger row"); an ending needs editor or owner (docs/store.md, "Endings").
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerLifecycleTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_open',
    {
      title: 'Open a canvas for a task',
      description: [
        'Start the canvas of a ledger row: create it, then the problem and the expected value as its first two text nodes (three commits); you become its owner.',
        'Each of `problem` and `expectedValue` left out is read from the ledger row state/ledger/<ledger>.json (never written); one that neither gives is rejected (USAGE), a row that is not a JSON object of strings is rejected (BAD_LEDGER_ROW), and nothing is written.',
        'Result: the outcome as structured content and as JSON text: {"outcome":"applied","revision","node","nodes":[problem id, expected-value id]} or {"outcome":"rejected",...} (CANVAS_EXISTS when the canvas exists: read it with canvas_read).',
      ].join(' '),
      args: { ...writeArgs, problem: problemArg, expectedValue: expectedValueArg },
      result: 'outcome',
      // Opening it again is CANVAS_EXISTS: nothing more is written.
      annotations: WRITE,
    },
    async (a) => {
      const common = { ledger: a.ledger, why: a.why, author: authorOfCall(ctx.who, a.step, a.run), idempotencyKey: a.idempotencyKey };
      return openCanvas(ctx.ws, { ...common, problem: a.problem, expectedValue: a.expectedValue }, SOURCES);
    },
  );

  const author = (a: { step?: string | undefined; run?: string | undefined }) => authorOfCall(ctx.who, a.step, a.run);

  registerCanvasTool(
    server,
    ctx,
    'canvas_create',
    {
      title: 'Create an empty canvas',
      description: [
        'Create a canvas with the root alone (one commit); you become its owner. To start a task with its problem and expected value, use canvas_open instead.',
        'CANVAS_EXISTS when it exists (read it with canvas_read).',
        OUTCOME,
      ].join(' '),
      args: writeArgs,
      result: 'outcome',
      // Creating it again is CANVAS_EXISTS: nothing more is written.
      annotations: WRITE,
    },
    async (a) => createCanvas(ctx.ws, { ledger: a.ledger, why: a.why, author: author(a), idempotencyKey: a.idempotencyKey }),
  );

  const ending = (name: string, title: string, description: string, end: typeof freezeCanvas) =>
    registerCanvasTool(
      server,
      ctx,
      name,
      {
        title,
        description: [description, 'One commit that names no node and changes no byte; the canvas still takes edits, and its pages show the ending with your `why`. Needs editor or owner.', OUTCOME].join(' '),
        args: writeArgs,
        result: 'outcome',
        // Each call records one more ending (the latest is the one shown): not idempotent.
        annotations: { ...WRITE, idempotentHint: false },
      },
      async (a) => end(ctx.ws, { ledger: a.ledger, why: a.why, author: author(a), idempotencyKey: a.idempotencyKey }),
    );
  ending('canvas_freeze', 'Freeze a canvas', 'Record that the work on this canvas is over: `why` is its final report (what was decided and why), pushed to every watcher\'s inbox.', freezeCanvas);
  ending('canvas_abandon', 'Abandon a canvas', 'Record that the work on this canvas was given up: `why` says why.', abandonCanvas);
}
