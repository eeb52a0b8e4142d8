/**
 * The JSON shapes the MCP server returns (docs/mcp.md "The four outcomes"). Every write tool's result text parses against exactly one of the four
 * outcome schemas; `outcome` is the discriminant, so a caller never infers the outcome from prose.
 * Any other refusal (no role, a read refused) is an {@link ErrorResultSchema}, which has no
 * `outcome` key and so is never mistaken for one of the four.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../model/canvas-error.js';
import { NODE_TYPES } from '../model/types.js';

/** A full git sha. */
export const SHA = z.string().regex(/^[0-9a-f]{40}$/);

const ERROR_CODE = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

/** One side of a node's change (docs/diff.md): its type, v, parent and canonical XML. */
export const NODE_STATE = z.strictObject({
  type: z.enum(NODE_TYPES),
  v: z.number().int().positive(),
  parent: z.string(),
  xml: z.string(),
});

/** One commit of a canvas: full sha, op, node, author, reason, ISO date. */
export const EDIT_RECORD = z.strictObject({
  commit: SHA,
  op: z.string(),
  node: z.string().nullable(),
  author: z.string(),
  reason: z.string(),
  date: z.string(),
});

/** One node's change since a base, with the commits that made it (docs/diff.md). */
const DiffEntrySchema = z.strictObject({
  node: z.string(),
  change: z.enum(['inserted', 'removed', 'replaced', 'moved']),
  before: NODE_STATE.nullable(),
  after: NODE_STATE.nullable(),
  commits: z.array(EDIT_RECORD),
});

/** `applied`: the write went through; `revision` is the new Canvas-Base, `node` the id written. */
export const AppliedSchema = z.strictObject({
  outcome: z.literal('applied'),
  revision: SHA,
  node: z.string().nullable(),
  diff: z.array(DiffEntrySchema),
  replayed: z.boolean().optional(),
  nodes: z.array(z.string()).optional(),
});

/** `proposed`: a commenter's write, stored as a proposal an editor or owner decides. */
export const ProposedSchema = z.strictObject({
  outcome: z.literal('proposed'),
  proposalId: z.string().regex(/^[0-9a-f]{10}$/),
  revision: SHA,
  replayed: z.boolean().optional(),
});

/** `conflict`: the base was stale for a checked node; both revisions and the node's diff. */
export const ConflictSchema = z.strictObject({
  outcome: z.literal('conflict'),
  code: z.enum(['STALE_BASE', 'REQUIRE_CHANGED']),
  node: z.string().nullable(),
  expectedRevision: SHA,
  currentRevision: SHA,
  diff: z.array(DiffEntrySchema),
});

/** `rejected`: the request was refused (role, reason, payload, workspace, ...); nothing written. */
export const RejectedSchema = z.strictObject({
  outcome: z.literal('rejected'),
  code: ERROR_CODE,
  reason: z.string().min(1),
  hint: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** Exactly one of the four outcomes. */
export const OutcomeSchema = z.discriminatedUnion('outcome', [AppliedSchema, ProposedSchema, ConflictSchema, RejectedSchema]);

/** Every refusal that is not an outcome: no role, a read refused, a fault of the server. */
export const ErrorResultSchema = z.strictObject({
  error: z.strictObject({
    code: ERROR_CODE,
    message: z.string().min(1),
    hint: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
});
