/**
 * The one error class of the project (docs/errors.md). Every refusal carries a stable `code`,
 * a message that names what was wrong, a `hint` that names the fix or the next command, and
 * structured `data`. `docs/errors.md` has one entry per code; a test checks that.
 */

/** Every error code, as a literal union. Exit codes: see {@link EXIT_CODES}. */
export type ErrorCode =
  | 'USAGE'
  | 'NO_WORKSPACE'
  | 'BAD_LEDGER_ID'
  | 'BAD_LEDGER_ROW'
  | 'CANVAS_NOT_FOUND'
  | 'CANVAS_EXISTS'
  | 'NODE_NOT_FOUND'
  | 'BAD_ANCHOR'
  | 'XML_PARSE'
  | 'UNSAFE_XML'
  | 'BAD_ENCODING'
  | 'TOO_LARGE'
  | 'TOO_DEEP'
  | 'TOO_LONG'
  | 'SCHEMA'
  | 'PAYLOAD_HAS_ID'
  | 'PAYLOAD_CHILDREN'
  | 'HAS_CHILDREN'
  | 'NESTING'
  | 'MOVE_INTO_SELF'
  | 'TWO_NODES'
  | 'NO_CHANGE'
  | 'BAD_REASON'
  | 'BAD_AUTHOR'
  | 'BASE_REQUIRED'
  | 'UNKNOWN_BASE'
  | 'BASE_NOT_ANCESTOR'
  | 'FOREIGN_BASE'
  | 'STALE_BASE'
  | 'REQUIRE_CHANGED'
  | 'DIRTY_WORKTREE'
  | 'UNSAFE_PATH'
  | 'LOCK_TIMEOUT'
  | 'REF_MOVED'
  | 'FOREIGN_COMMIT'
  | 'UNSAFE_SVG'
  | 'SVG_SANITIZER_UNAVAILABLE'
  | 'DIAGRAM_SYNTAX'
  | 'FIGURE_NOT_DRAWN'
  | 'SCENE_JSON'
  | 'SCENE_INVALID'
  | 'SCENE_LIMIT'
  | 'UNSAFE_SCENE'
  | 'NO_ROLE'
  | 'ROLE_TOO_LOW'
  | 'LAST_OWNER'
  | 'BAD_ROLE'
  | 'PROPOSAL_NOT_FOUND'
  | 'PROPOSAL_DECIDED'
  | 'SELF_APPROVAL'
  | 'NOT_WATCHING'
  | 'NO_LEDGER'
  | 'HOOK_INPUT'
  | 'IDEMPOTENCY_MISMATCH'
  | 'WORKSPACE_MISMATCH'
  | 'VERIFY_FAILED'
  | 'IMPORT_FAILED'
  | 'BUILD_FAILED'
  | 'NO_CANVAS_FOUND'
  | 'OUTPUT_IN_REPOSITORY'
  | 'BAD_OUT_DIR'
  | 'MERMAID_NOT_FOUND'
  | 'MERMAID_MISMATCH'
  | 'GIT_FAILED'
  | 'BAD_REMOTE'
  | 'NO_REMOTE'
  | 'REMOTE_NOT_BARE'
  | 'REMOTE_UNREACHABLE'
  | 'REMOTE_REFUSED'
  | 'REMOTE_AUTH'
  | 'REMOTE_BUSY'
  | 'REMOTE_DIVERGED'
  | 'GIT_HELPER_FAILED'
  | 'NO_SPACE'
  | 'PERMISSION_DENIED'
  | 'INTERNAL'
  | 'ROW_BODY_REQUIRED'
  | 'PUBLISH_TARGET'
  | 'PUBLISH_CONFIG'
  | 'PUBLISH_AUTH'
  | 'PUBLISH_NOT_FOUND'
  | 'PUBLISH_FAILED'
  | 'CHECK_CONFIG'
  | 'CHECK_MODEL_UNREACHABLE'
  | 'CHECK_MODEL_TIMEOUT'
  | 'CHECK_MODEL_FAILED'
  | 'CHECK_BAD_REPLY'
  | 'CHECK_UNKNOWN_NODES'
  | 'SERVE_FORBIDDEN'
  | 'SERVE_BAD_REQUEST'
  | 'SERVE_UNAVAILABLE'
  | 'MCP_UNAUTHORIZED'
  | 'TOKEN_NOT_FOUND'
  | 'SERVER_STOPPING'
  | 'INTERRUPTED';

/** What a code means to a caller: it decides the exit code and the outcome kind. */
export type ErrorKind = 'rejected' | 'conflict' | 'verify' | 'no-role' | 'internal' | 'model' | 'reply' | 'partial' | 'interrupted';

const KIND: Record<ErrorCode, ErrorKind> = {
  USAGE: 'rejected',
  NO_WORKSPACE: 'rejected',
  BAD_LEDGER_ID: 'rejected',
  BAD_LEDGER_ROW: 'rejected',
  CANVAS_NOT_FOUND: 'rejected',
  CANVAS_EXISTS: 'rejected',
  NODE_NOT_FOUND: 'rejected',
  BAD_ANCHOR: 'rejected',
  XML_PARSE: 'rejected',
  UNSAFE_XML: 'rejected',
  BAD_ENCODING: 'rejected',
  TOO_LARGE: 'rejected',
  TOO_DEEP: 'rejected',
  TOO_LONG: 'rejected',
  SCHEMA: 'rejected',
  PAYLOAD_HAS_ID: 'rejected',
  PAYLOAD_CHILDREN: 'rejected',
  HAS_CHILDREN: 'rejected',
  NESTING: 'rejected',
  MOVE_INTO_SELF: 'rejected',
  TWO_NODES: 'rejected',
  NO_CHANGE: 'rejected',
  BAD_REASON: 'rejected',
  BAD_AUTHOR: 'rejected',
  BASE_REQUIRED: 'rejected',
  UNKNOWN_BASE: 'rejected',
  BASE_NOT_ANCESTOR: 'rejected',
  FOREIGN_BASE: 'rejected',
  STALE_BASE: 'conflict',
  REQUIRE_CHANGED: 'conflict',
  DIRTY_WORKTREE: 'rejected',
  UNSAFE_PATH: 'rejected',
  LOCK_TIMEOUT: 'internal',
  REF_MOVED: 'internal',
  FOREIGN_COMMIT: 'rejected',
  UNSAFE_SVG: 'rejected',
  SVG_SANITIZER_UNAVAILABLE: 'internal',
  DIAGRAM_SYNTAX: 'rejected',
  FIGURE_NOT_DRAWN: 'internal',
  SCENE_JSON: 'rejected',
  SCENE_INVALID: 'rejected',
  SCENE_LIMIT: 'rejected',
  UNSAFE_SCENE: 'rejected',
  NO_ROLE: 'no-role',
  ROLE_TOO_LOW: 'rejected',
  LAST_OWNER: 'rejected',
  BAD_ROLE: 'rejected',
  PROPOSAL_NOT_FOUND: 'rejected',
  PROPOSAL_DECIDED: 'rejected',
  SELF_APPROVAL: 'rejected',
  NOT_WATCHING: 'rejected',
  NO_LEDGER: 'rejected',
  HOOK_INPUT: 'rejected',
  IDEMPOTENCY_MISMATCH: 'rejected',
  WORKSPACE_MISMATCH: 'rejected',
  VERIFY_FAILED: 'verify',
  IMPORT_FAILED: 'rejected',
  BUILD_FAILED: 'partial',
  NO_CANVAS_FOUND: 'internal',
  OUTPUT_IN_REPOSITORY: 'rejected',
  BAD_OUT_DIR: 'rejected',
  MERMAID_NOT_FOUND: 'rejected',
  MERMAID_MISMATCH: 'rejected',
  GIT_FAILED: 'internal',
  BAD_REMOTE: 'rejected',
  NO_REMOTE: 'rejected',
  REMOTE_NOT_BARE: 'rejected',
  REMOTE_UNREACHABLE: 'internal',
  REMOTE_REFUSED: 'internal',
  REMOTE_AUTH: 'rejected',
  REMOTE_BUSY: 'internal',
  REMOTE_DIVERGED: 'rejected',
  GIT_HELPER_FAILED: 'internal',
  NO_SPACE: 'internal',
  PERMISSION_DENIED: 'internal',
  INTERNAL: 'internal',
  ROW_BODY_REQUIRED: 'rejected',
  PUBLISH_TARGET: 'rejected',
  PUBLISH_CONFIG: 'rejected',
  PUBLISH_AUTH: 'rejected',
  PUBLISH_NOT_FOUND: 'rejected',
  PUBLISH_FAILED: 'internal',
  CHECK_CONFIG: 'rejected',
  CHECK_MODEL_UNREACHABLE: 'model',
  CHECK_MODEL_TIMEOUT: 'model',
  CHECK_MODEL_FAILED: 'model',
  CHECK_BAD_REPLY: 'reply',
  CHECK_UNKNOWN_NODES: 'reply',
  SERVE_FORBIDDEN: 'rejected',
  SERVE_BAD_REQUEST: 'rejected',
  SERVE_UNAVAILABLE: 'internal',
  MCP_UNAUTHORIZED: 'rejected',
  TOKEN_NOT_FOUND: 'rejected',
  SERVER_STOPPING: 'internal',
  INTERRUPTED: 'interrupted',
};

/** Every code, sorted; `docs/errors.md` documents each one (a test checks). */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(KIND).sort() as ErrorCode[];

/**
 * A refusal or failure with a stable code.
 *
 * @param code - the stable code (see `docs/errors.md`)
 * @param message - one or more lines naming what was wrong
 * @param hint - the fix, or the next command to run
 * @param data - structured detail (paths, node ids, matches) for programs
 */
export class CanvasError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly data: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, hint: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'CanvasError';
    this.code = code;
    this.hint = hint;
    this.data = data;
  }

  /** What the code means to a caller: rejected, conflict, verify, no-role, internal, model, reply, partial or interrupted. */
  get kind(): ErrorKind {
    return KIND[this.code];
  }

  /**
   * The error as the edges print it (docs/errors.md): `{code, message, hint}`, and `data` when it
   * holds anything. `JSON.stringify` calls this, so the CLI's `--json` error and the MCP server's
   * `{"error": ...}` result are this one shape.
   */
  toJSON(): { code: ErrorCode; message: string; hint: string; data?: Record<string, unknown> } {
    return { code: this.code, message: this.message, hint: this.hint, ...(Object.keys(this.data).length > 0 ? { data: this.data } : {}) };
  }
}

/**
 * The CLI's exit codes (docs/cli.md, "Exit codes"), by what ended the command: the one table every
 * exit code of `canvas` is read from. `ok` a command that succeeded; one per error kind, which a
 * write's conflict or rejected outcome and a report's verdict use too (`model` and `reply` are
 * `canvas check`'s, docs/coherence.md "Failures"; `partial` a build that built the rest of the
 * site, docs/site.md, "One bad canvas does not stop the build"); a command stopped by a signal
 * before its write was applied exits as a shell reports it, 128 + the signal's number:
 * `interrupted` (SIGINT), `terminated` (SIGTERM).
 */
export const EXIT_CODES: Readonly<Record<'ok' | ErrorKind | 'terminated', number>> = {
  ok: 0,
  internal: 1,
  rejected: 2,
  conflict: 3,
  verify: 4,
  'no-role': 5,
  model: 6,
  reply: 7,
  partial: 8,
  interrupted: 130,
  terminated: 143,
};

/**
 * Map an error kind to the CLI's exit code: its row of {@link EXIT_CODES} (docs/cli.md, "Exit
 * codes"). An `INTERRUPTED` error gives SIGINT's 130; a command stopped by SIGTERM exits 143
 * (docs/cli.md, "Signals").
 */
export function exitCodeFor(kind: ErrorKind): number {
  return EXIT_CODES[kind];
}

/** The kind of a code, for callers that only hold the code. */
export function errorKindOf(code: ErrorCode): ErrorKind {
  return KIND[code];
}
