import { indexNodes } from '../../model/index-nodes.js';
import type { Snapshot } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';
import { type CitedKind, evidenceInReason } from './evidence-in-reason.js';

/** A node's text as the artifact quotes it, with the section it stands in (null at the root). */
export interface QuotedNode {
  node: string;
  section: string | null;
  text: string;
}

/** The done artifact (docs/projections.md, "The done artifact"); `schema/done.schema.json` is its JSON Schema. */
export interface DoneArtifact {
  ledger: string;
  /** The revision it projects (full sha). */
  revision: string;
  /** How many questions are still open: when more than none, the artifact says so first. */
  openQuestions: number;
  /** The latest ending at this revision, or null. */
  ending: { kind: 'frozen' | 'abandoned'; commit: string; reason: string; editedSince: boolean } | null;
  /** What: the problem (the first text node) and every other text node, in document order. */
  what: { problem: QuotedNode | null; settled: QuotedNode[] };
  /** Why: per node, in document order, the reason of the latest commit that named it. */
  why: Array<{ node: string; type: CanvasNode['type']; reason: string; commit: string; author: string; date: string }>;
  /** Evidence: every link node, then every citation in a reason (a PR, a commit sha, a file and line). */
  evidence: Array<{ kind: 'link' | CitedKind; value: string; node: string | null; commit: string | null }>;
  /** Verification: answered questions, and the open ones as unverified. */
  verification: { verified: QuotedNode[]; unverified: QuotedNode[] };
  /** Links: every link node, in document order. */
  links: Array<{ node: string; href: string; label: string }>;
}

/**
 * Project the done artifact from a snapshot (docs/projections.md, "The done artifact"):
 * What / Why / Evidence / Verification / Links, each filled by a fixed rule from the tree, the
 * node histories and the ending, with no model. Pure: the same snapshot gives the same artifact.
 *
 * @param snapshot - the canvas at one revision, with its node histories
 * @returns the artifact, ready to serialize as JSON or to render as Markdown
 */
export function doneArtifact(snapshot: Snapshot): DoneArtifact {
  const index = indexNodes(snapshot.canvas);
  const sectionOf = (parent: string): string | null => {
    const p = index.get(parent)?.node;
    return p?.type === 'section' ? p.title : null;
  };
  const texts: QuotedNode[] = [];
  const verified: QuotedNode[] = [];
  const unverified: QuotedNode[] = [];
  const links: DoneArtifact['links'] = [];
  const why: DoneArtifact['why'] = [];
  const evidence: DoneArtifact['evidence'] = [];
  const seen = new Set<string>();
  const cite = (kind: 'link' | CitedKind, value: string, node: string | null, commit: string | null) => {
    if (seen.has(`${kind} ${value}`)) return;
    seen.add(`${kind} ${value}`);
    evidence.push({ kind, value, node, commit });
  };
  for (const [id, { node, parent }] of index) {
    const quoted = (text: string): QuotedNode => ({ node: id, section: sectionOf(parent), text });
    if (node.type === 'text') texts.push(quoted(node.text));
    if (node.type === 'question') (node.answered ? verified : unverified).push(quoted(node.text));
    if (node.type === 'link') {
      links.push({ node: id, href: node.href, label: node.label });
      cite('link', node.href, id, null);
    }
    const history = snapshot.history[id] ?? [];
    const latest = history[history.length - 1];
    if (latest) why.push({ node: id, type: node.type, reason: latest.reason, commit: latest.commit, author: latest.author, date: latest.date });
  }
  // Citations in reasons: every commit of every node's history, node by node in document order and
  // each node's commits oldest first, then the ending's own reason.
  for (const [id] of index) {
    for (const entry of snapshot.history[id] ?? []) {
      for (const c of evidenceInReason(entry.reason)) cite(c.kind, c.value, id, entry.commit);
    }
  }
  const ending = snapshot.ending;
  if (ending) for (const c of evidenceInReason(ending.reason)) cite(c.kind, c.value, null, ending.commit);
  const [problem, ...settled] = texts;
  return {
    ledger: snapshot.ledger,
    revision: snapshot.revision,
    openQuestions: unverified.length,
    ending: ending ? { kind: ending.kind, commit: ending.commit, reason: ending.reason, editedSince: ending.editedSince } : null,
    what: { problem: problem ?? null, settled },
    why,
    evidence,
    verification: { verified, unverified },
    links,
  };
}
