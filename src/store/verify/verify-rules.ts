import type { ErrorCode } from '../../model/canvas-error.js';

/**
 * The rules `canvas verify` checks, by name (docs/store.md, "Verify", has one line per rule; a
 * test checks the list against it both ways). A violation names exactly one of them.
 */
export const VERIFY_RULES = [
  'commit',
  'trailers',
  'base',
  'committer',
  'chain',
  'files',
  'schema',
  'canonical',
  'guard',
  'version',
  'content',
  'authority',
  'grant',
  'proposal',
  'ref',
  'truncated',
  'reflog',
  'cache',
  'working-tree',
  'unsafe-path',
] as const;

/** The name of one rule `verify` checks. */
export type VerifyRule = (typeof VERIFY_RULES)[number];

/** One thing `verify` found wrong. */
export interface Violation {
  /** The rule broken (see {@link VERIFY_RULES} and docs/store.md, "Verify"). */
  rule: VerifyRule;
  /** The error code that names it, where one applies (for example `TWO_NODES`, `NO_ROLE`, `UNSAFE_SVG`). */
  code?: ErrorCode;
  /** The commit (full sha) the violation is in, when it is in one. */
  commit?: string;
  ledger?: string;
  /** The file, or the ref (`refs/heads/main`), it is about. */
  path?: string;
  message: string;
}
