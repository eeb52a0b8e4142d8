import type { ErrorCode } from '../../model/canvas-error.js';
import type { NodeChange } from '../../model/diff-canvases.js';
import type { SnapshotEdit } from '../../model/snapshot.js';

/** One commit of a canvas, as edits, diffs and snapshots report it: full sha, op, node, author, reason, ISO date. */
export type EditRecord = SnapshotEdit;

/** One node's change since a base, with the commits that made it (docs/diff.md). */
export interface DiffEntry extends NodeChange {
  commits: EditRecord[];
}

/** The write went through. `node` is the id written (so a caller learns a minted id). */
export interface Applied {
  outcome: 'applied';
  revision: string;
  node: string | null;
  /** Everything else that changed in this canvas since the declared base. */
  diff: DiffEntry[];
  /** True when an idempotency key replayed an earlier write: nothing new was written. */
  replayed?: boolean;
  /** For `open`: the ids of the problem and expected-value nodes. */
  nodes?: string[];
}

/** A commenter's write, stored as a proposal. */
export interface Proposed {
  outcome: 'proposed';
  proposalId: string;
  revision: string;
  replayed?: boolean;
}

/** The base is stale for a checked node (or `--require` saw a change): nothing applied. */
export interface Conflict {
  outcome: 'conflict';
  code: 'STALE_BASE' | 'REQUIRE_CHANGED';
  /** The node whose change made this a conflict, when there is one. */
  node: string | null;
  expectedRevision: string;
  currentRevision: string;
  /** The checked node's diff since base (for --require: everything since). */
  diff: DiffEntry[];
}

/** Refused: the request itself was wrong (reason, payload, schema, role, ...). */
export interface Rejected {
  outcome: 'rejected';
  code: ErrorCode;
  /**
   * What was wrong: the refusal's message (`CanvasError.message`), not a commit's reason. Named
   * `reason` because the outcome is its own wire format (docs/mcp.md, "The four outcomes"): the
   * library returns the object that the CLI's `--json` and the MCP server print, key for key.
   */
  reason: string;
  hint: string;
  data?: Record<string, unknown>;
}

/** Every write returns exactly one of these four (docs/store.md "Outcomes", docs/mcp.md). */
export type Outcome = Applied | Proposed | Conflict | Rejected;
