import type { Canvas } from './types.js';

/** One commit of a canvas, as projections show it. */
export interface SnapshotEdit {
  /** Full sha. */
  commit: string;
  op: string;
  node: string | null;
  author: string;
  reason: string;
  /** ISO 8601 UTC. */
  date: string;
}

/**
 * One commit of a node's history (docs/projections.md, "Why is this here?"): a commit whose `Canvas-Node`
 * trailer names the node. For an approved proposal, the author approved it and `reason` is the
 * approver's; the proposer and their reason are kept beside.
 */
export interface HistoryEntry extends SnapshotEdit {
  /** For an approved proposal: who proposed it. */
  proposedBy?: string;
  /** For an approved proposal: the proposer's reason. */
  proposedWhy?: string;
}

/**
 * A node that crossed between sections (docs/projections.md): its parent now differs from its parent
 * at insert. It carries one reason: that of the latest move into its current parent.
 */
export interface Crossing {
  node: string;
  /** The parent at insert: a section id or `root`. */
  from: string;
  /** The parent now. */
  to: string;
  /** The latest move into `to`: its full sha and reason. */
  commit: string;
  reason: string;
}

/**
 * The latest ending of a canvas (docs/store.md, "Endings"): a freeze or an abandon, both one commit
 * naming no node and changing no byte. A canvas goes on taking edits after either.
 */
export interface Ending {
  /** `frozen` for a freeze, `abandoned` for an abandon. */
  kind: 'frozen' | 'abandoned';
  /** The ending's commit (full sha). */
  commit: string;
  /** Its reason: why the work is over, or why it was given up. */
  reason: string;
  author: string;
  /** ISO 8601 UTC. */
  date: string;
  /** True when a commit that changed the document came after it, up to the revision rendered. */
  editedSince: boolean;
}

/**
 * Everything a renderer gets: one read of a canvas at one revision (docs/projections.md).
 * Renderers are pure functions of a snapshot; none touches git.
 */
export interface Snapshot {
  ledger: string;
  /** The revision rendered (full sha). */
  revision: string;
  canvas: Canvas;
  /** The latest freeze, if the canvas was ever frozen (it may be followed by an abandon: see `ending`). */
  frozen: { commit: string; reason: string; author: string; date: string } | null;
  /** The latest ending, freeze or abandon, at this revision: what the projections show. */
  ending: Ending | null;
  /** The canvas's latest commit. */
  lastEdit: SnapshotEdit | null;
  /** The latest commits, newest first (up to the number asked for). */
  recentEdits: SnapshotEdit[];
  /** Every node that crossed, in document order. */
  crossings: Crossing[];
  /**
   * Every node's reasons (docs/projections.md, "Why is this here?"): for each node of the tree,
   * by id, every commit up to `revision` that named it, oldest first, as `canvas history` lists them.
   */
  history: Readonly<Record<string, readonly HistoryEntry[]>>;
}
