import type { CanvasLinkTarget } from '../../model/canvas-link.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { danglingLinks, type LinkWarning } from '../../model/dangling-links.js';
import type { LinkOut } from '../../model/links-of.js';
import { type CanvasActor, canvasActors } from './canvas-actors.js';
import { listCanvases } from '../repo/list-canvases.js';
import { type CanvasWatcher, listWatchers } from '../watch/list-watchers.js';
import { readLinkGraph } from './read-link-graph.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/** A link node of the canvas (docs/links.md, "Edges"); a link to a canvas that points at nothing says why. */
export type EdgeLinkOut = LinkOut & { problem?: LinkWarning['problem'] };

/** Another canvas's link to this one (docs/links.md, "Edges"). */
export interface EdgeLinkIn {
  /** The canvas holding the link. */
  ledger: string;
  /** The link node's id there. */
  node: string;
  href: string;
  label: string;
  /** This canvas, and the node of it the link names (null: the canvas as a whole). */
  target: CanvasLinkTarget;
  /** `no-node` when this canvas has no node of that id at its revision. */
  problem?: 'no-node';
}

/** What `canvas edges` shows of one canvas (docs/links.md, "Edges"). */
export interface CanvasEdges {
  ledger: string;
  /** The canvas's revision (full sha): the links out and the actors are as of it. */
  revision: string;
  /** Its link nodes, in document order: web links, links to canvases (marked `kind: "canvas"`), others. */
  linksTo: EdgeLinkOut[];
  /** Other canvases' `canvas:` links to it, each at its canvas's revision, by ledger id then document order. */
  linkedFrom: EdgeLinkIn[];
  /** Who acted on it: each `who` with their count and last act, the latest first. */
  actors: CanvasActor[];
  /** Who watches it, sorted by `who` (docs/store.md, "Watches and the inbox"): read afresh, never cached. */
  watchers: CanvasWatcher[];
}

/**
 * A canvas's edges (docs/links.md, "Edges"): what it links to, what links to it, who acted on
 * it and who watches it. The links are judged against every canvas at its current revision, read from the link
 * graph's cache (an entry per canvas keyed by revision, `.git/canvas-cache/_links.jsonl`); the actors
 * are folded from the canvas's own chain, with a cache keyed by revision; the watchers are read
 * from the watch files, outside the history.
 *
 * @param ws - the workspace
 * @param ledger - the canvas's ledger id
 * @returns its edges
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `GIT_FAILED`
 */
export async function canvasEdges(ws: Workspace, ledger: string): Promise<CanvasEdges> {
  const id = checkLedgerId(ledger);
  const refs = await listCanvases(ws);
  const ref = refs.find((r) => r.ledger === id);
  if (!ref) throw canvasNotFound(ws.root, id);
  const graph = await readLinkGraph(ws, refs);
  const problems = new Map(danglingLinks(graph, [id]).map((w) => [w.node, w.problem]));
  const linksTo = (graph.get(id)?.links ?? []).map((l) => {
    const problem = problems.get(l.node);
    return problem ? { ...l, problem } : { ...l };
  });
  const nodes = graph.get(id)?.nodes ?? null;
  const linkedFrom: EdgeLinkIn[] = [];
  for (const [from, entry] of graph) {
    if (from === id) continue;
    for (const l of entry.links) {
      if (l.target?.ledger !== id) continue;
      const missing = l.target.node !== null && nodes !== null && !nodes.has(l.target.node);
      linkedFrom.push({ ledger: from, node: l.node, href: l.href, label: l.label, target: l.target, ...(missing ? { problem: 'no-node' as const } : {}) });
    }
  }
  const reader = new RepoReader(ws);
  try {
    const actors = await canvasActors(reader, id, ref.revision);
    return { ledger: id, revision: ref.revision, linksTo, linkedFrom, actors, watchers: await listWatchers(ws, id) };
  } finally {
    reader.close();
  }
}
