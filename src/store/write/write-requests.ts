import type { PayloadInput } from '../../model/payload-from-input.js';

/** What every write takes (docs/store.md "Writes"). */
export interface WriteRequest {
  /** The ledger id. */
  ledger: string;
  /** The reason (`--why`): one plain line saying why. */
  why: string;
  /** `who[ | step:S][ | run:R]` or `who | by-hand`. */
  author: string;
  /** Scoped to the canvas and the who; a retry returns the original outcome. */
  idempotencyKey?: string | undefined;
}

/** What every node edit adds: the revision decided against. */
interface EditRequest extends WriteRequest {
  /**
   * A revision of this canvas, 7 to 40 hex characters (from `Canvas-Base:`); a commit of another
   * canvas is refused with `FOREIGN_BASE` (docs/store.md, "Staleness").
   */
  base?: string | undefined;
  /** Strict: refuse if anything in this canvas changed since this revision of it (implies base). */
  require?: string | undefined;
}

/** Where a node goes: exactly one of `after` (next sibling) or `into` (first child of a section or `root`). */
export interface AnchorRequest {
  after?: string | undefined;
  into?: string | undefined;
}

/** `canvas insert`. */
export interface InsertRequest extends EditRequest, AnchorRequest {
  payload: PayloadInput;
}

/** `canvas replace`. */
export interface ReplaceRequest extends EditRequest {
  node: string;
  payload: PayloadInput;
}

/** `canvas remove`. */
export interface RemoveRequest extends EditRequest {
  node: string;
}

/** `canvas move`. */
export interface MoveRequest extends EditRequest, AnchorRequest {
  node: string;
}

/**
 * `canvas open`: create plus the problem and the expected value as two text nodes. A value left
 * out is read from the ledger row (docs/store.md, "The ledger row").
 */
export interface OpenRequest extends WriteRequest {
  problem?: string | undefined;
  expectedValue?: string | undefined;
}
