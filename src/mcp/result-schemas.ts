/**
 * The structured results of the MCP server's read tools (docs/mcp.md "The tools"): what each one
 * returns as `structuredContent`, beside the same value as text. A write tool's result is one of
 * the four outcomes (outcome-schemas.ts); any tool's refusal is the error shape.
 */
import { z } from 'zod';
import { NODE_TYPES } from '../model/types.js';
import { ConflictSchema, EDIT_RECORD, RejectedSchema, SHA } from './outcome-schemas.js';

/** canvas_read: the revision to write against and the canonical XML; a filtered read adds its nodes. */
export const ReadResultSchema = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  xml: z.string(),
  nodes: z
    .array(z.strictObject({ id: z.string(), type: z.enum(NODE_TYPES), v: z.number().int().positive(), parent: z.string(), xml: z.string() }))
    .optional(),
});

/** canvas_history: the commits that named one node, oldest first. */
export const HistoryResultSchema = z.strictObject({
  ledger: z.string(),
  node: z.string(),
  commits: z.array(EDIT_RECORD.extend({ proposedBy: z.string().optional(), proposedWhy: z.string().optional() })),
});

/** canvas_log: the canvas's commits, newest first. */
export const LogResultSchema = z.strictObject({ ledger: z.string(), commits: z.array(EDIT_RECORD) });

/** canvas_prompt: the prompt text and the revision it shows. */
export const PromptResultSchema = z.strictObject({ ledger: z.string(), revision: SHA, prompt: z.string() });

const ANCHOR = z.union([z.strictObject({ after: z.string() }), z.strictObject({ into: z.string() })]);

/** canvas_list_proposals: the proposal files, open first (loose: a file may carry more than these). */
export const ProposalsResultSchema = z.strictObject({
  ledger: z.string(),
  proposals: z.array(
    z.looseObject({
      id: z.string(),
      ledger: z.string(),
      op: z.enum(['insert', 'replace', 'remove', 'move']),
      node: z.string().nullable(),
      anchor: ANCHOR.nullable(),
      payload: z.string().nullable(),
      base: SHA,
      require: z.string().nullable(),
      why: z.string(),
      proposedBy: z.string(),
      proposedRevision: z.string(),
      status: z.enum(['open', 'approved', 'rejected']),
      decidedBy: z.string().optional(),
      decision: z.string().optional(),
    }),
  ),
});

/** What became of one contradiction a check found (docs/coherence.md "The report"). */
const CHECK_FINDING = z.strictObject({
  nodes: z.array(z.string()),
  question: z.string(),
  evidence: z.string(),
  status: z.enum(['asked', 'proposed', 'already-asked', 'would-ask', 'conflict', 'rejected']),
  text: z.string(),
  after: z.string(),
  node: z.string().optional(),
  revision: SHA.optional(),
  proposalId: z.string().optional(),
  outcome: z.union([ConflictSchema, RejectedSchema]).optional(),
});

/** canvas_check: the report of one check (docs/coherence.md "The report"). */
export const CheckReportSchema = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  model: z.string(),
  dryRun: z.boolean(),
  asked: z.boolean(),
  structured: z.boolean(),
  attempts: z.number().int().nonnegative(),
  usage: z.strictObject({ promptChars: z.number().int().nonnegative(), promptTokens: z.number().nullable(), completionTokens: z.number().nullable() }),
  findings: z.array(CHECK_FINDING),
  skipped: z.array(
    z.strictObject({
      entry: z.number().int().nonnegative(),
      rule: z.enum(['unknown-node', 'question-node', 'one-node', 'many-nodes', 'question', 'duplicate', 'shape']),
      why: z.string(),
      nodes: z.array(z.string()).optional(),
    }),
  ),
  head: SHA,
});

/** canvas_render: one projection of the canvas at one revision (docs/projections.md). */
export const RenderResultSchema = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  format: z.enum(['html', 'comment', 'text']),
  content: z.string(),
});

const ENDING = z.strictObject({
  kind: z.enum(['frozen', 'abandoned']),
  commit: SHA,
  reason: z.string(),
  author: z.string(),
  date: z.string(),
  editedSince: z.boolean(),
});

/** One canvas as canvas_list shows it (docs/cli.md, "list"). */
const LIST_ENTRY = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  summary: z.strictObject({ node: z.string(), text: z.string(), full: z.string(), cut: z.boolean() }).nullable(),
  lastEdit: EDIT_RECORD,
  questions: z.strictObject({ open: z.number().int().nonnegative(), answered: z.number().int().nonnegative() }),
  ending: ENDING.nullable(),
  lastRunWrite: EDIT_RECORD.nullable(),
  writtenByRun: z.boolean(),
  watchers: z.array(z.string()),
  role: z.enum(['viewer', 'commenter', 'editor', 'owner']),
});

/** A canvas the list could not read: listed with its refusal, never left out. */
const LIST_FAILURE = z.strictObject({
  ledger: z.string(),
  revision: SHA,
  error: z.strictObject({ code: z.string(), message: z.string() }),
  watchers: z.array(z.string()),
  /** Null when the canvas's grants could not be read either. */
  role: z.enum(['viewer', 'commenter', 'editor', 'owner']).nullable(),
});

/** canvas_list: the canvases the caller holds a role on, sorted by ledger id. */
export const ListResultSchema = z.strictObject({ canvases: z.array(z.union([LIST_ENTRY, LIST_FAILURE])) });
