import type { CanonicalCanvas } from '../../model/parse-canonical-canvas.js';
import type { Canvas } from '../../model/types.js';
import type { CanvasFacts } from '../repo/canvas-facts.js';
import type { RepoReader } from '../repo/repo-reader.js';
import type { AuthorityReplay } from './verify-authority.js';

// What `canvas verify`'s replay of main carries from one commit to the next (docs/store.md, "Verify").

/** One canvas as the replay has seen it so far. */
interface CanvasState {
  revision: string;
  /** The document at the last revision whose document parsed (null when none has yet). */
  canvas: Canvas | null;
  /** How many commits named each node so far (carried from commit to commit, changed in place). */
  counts: Map<string, number>;
  /** The nodes whose `v` disagreed with their count at the last revision, in document order. */
  wrongVersions: string[];
  /** The last document as {@link parseCanonicalCanvas} read it (null when it was not canonical). */
  canonical: CanonicalCanvas | null;
  xml: Buffer;
  /** The facts folded from the chain so far, as the cache in `.git/canvas-cache/` holds them. */
  facts: CanvasFacts;
}

/** What the replay of main carries from one commit to the next. */
export interface Replay {
  canvases: Map<string, CanvasState>;
  /** Every commit seen on main, with the ledger it names. */
  history: Map<string, string | undefined>;
  authority: AuthorityReplay;
  /** The facts caches found, by ledger: what they hold, and whether their revision was met. */
  caches: Map<string, { facts: Record<string, unknown>; met: boolean }>;
  reader: RepoReader;
  /** Whether verify may write (repair): false when the repository cannot be written. */
  writes: () => boolean;
  /** An object's bytes: asked for ahead of the commit that needs them (see {@link prefetch}). */
  object: (sha: string) => Promise<Buffer | null>;
  /**
   * Whether the commit at hand falls under the `base` rule: false up to and including the main
   * sha the repository records in `canvas.chainBasesSince` (commits written when any earlier
   * commit on main was a valid base), true after it and in a repository the store made.
   */
  baseRule: boolean;
}
