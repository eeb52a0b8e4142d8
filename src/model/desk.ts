import type { Anchor } from './edit-tree.js';
import { indexNodes } from './index-nodes.js';
import { serializeNode } from './serialize-node.js';
import type { Snapshot } from './snapshot.js';
import type { Canvas } from './types.js';

/** An open question waiting for a person (docs/site.md, "The desk"). */
export interface DeskQuestion {
  ledger: string;
  /** The question node's id. */
  node: string;
  text: string;
  /** Who asked: the author of the first commit that named the node. */
  askedBy: string;
  /** When: that commit's date, ISO 8601 UTC. */
  askedAt: string;
  /** The canvas's revision the question was read at: the base an answer is written against. */
  revision: string;
}

/** A proposal waiting for a decision (docs/site.md, "The desk"). */
export interface DeskProposal {
  ledger: string;
  /** The proposal's id, as `canvas approve` takes it. */
  id: string;
  proposedBy: string;
  why: string;
  op: 'insert' | 'replace' | 'remove' | 'move';
  /** The node the edit names (null for an insert). */
  node: string | null;
  /** Where an insert or a move puts the node: `after <id>` or `first in <id|root>`. */
  place: string | null;
  /** The node as the canvas holds it now (canonical XML, without id and v), or null. */
  before: string | null;
  /** The node as the proposal would make it, or null (a remove; a move changes no content). */
  after: string | null;
  /** The revision the proposer decided against. */
  base: string;
  /** The canvas's revision the desk was read at. */
  revision: string;
}

/** What waits for a person across the canvases, oldest question first. */
export interface Desk {
  questions: DeskQuestion[];
  proposals: DeskProposal[];
}

/**
 * The open questions of one canvas at a snapshot's revision, each with who asked it and when
 * (the first commit of its history), in document order.
 *
 * @param snapshot - the canvas at its revision, with its nodes' histories
 * @returns one entry per open question
 */
export function deskQuestionsOf(snapshot: Pick<Snapshot, 'ledger' | 'revision' | 'canvas' | 'history'>): DeskQuestion[] {
  const out: DeskQuestion[] = [];
  for (const { node } of indexNodes(snapshot.canvas).values()) {
    if (node.type !== 'question' || node.answered) continue;
    const first = snapshot.history[node.id]?.[0];
    out.push({ ledger: snapshot.ledger, node: node.id, text: node.text, askedBy: first?.author ?? '', askedAt: first?.date ?? '', revision: snapshot.revision });
  }
  return out;
}

/**
 * Sort a desk's questions oldest first (then by canvas and node), and its proposals by canvas and
 * id: the order every surface shows (docs/site.md, "The desk").
 *
 * @param desk - questions and proposals in any order
 * @returns a new desk, sorted
 */
export function sortDesk(desk: Desk): Desk {
  return { questions: sortedBy(desk.questions, deskQuestionKey), proposals: sortedBy(desk.proposals, deskProposalKey) };
}

/** A question's place on the desk: oldest first, then by canvas and node (compared as strings). */
export function deskQuestionKey(q: Pick<DeskQuestion, 'askedAt' | 'ledger' | 'node'>): string {
  return `${q.askedAt}\u0000${q.ledger}\u0000${q.node}`;
}

/** A proposal's place on the desk: by canvas, then id (compared as strings). */
export function deskProposalKey(p: Pick<DeskProposal, 'ledger' | 'id'>): string {
  return `${p.ledger}\u0000${p.id}`;
}

/**
 * Items sorted by a key each computed once.
 *
 * @returns a new array
 */
export function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, k: key(item) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.item);
}

/** The fields of a proposal file the desk shows. */
export interface ProposalFields {
  id: string;
  ledger: string;
  op: DeskProposal['op'];
  node: string | null;
  anchor: Anchor | null;
  /** The payload's canonical XML, for an insert or a replace. */
  payload: string | null;
  base: string;
  why: string;
  proposedBy: string;
}

/**
 * A proposal as the desk shows it: the change as the node before and after, against the canvas
 * as it is now.
 *
 * @param p - the proposal
 * @param canvas - the canvas at `revision`
 * @param revision - its revision
 */
export function deskProposalOf(p: ProposalFields, canvas: Canvas, revision: string): DeskProposal {
  const now = p.node === null ? undefined : indexNodes(canvas).get(p.node)?.node;
  const before = now ? serializeNode(now, { payload: true, shallow: true }) : null;
  const place = p.anchor === null ? null : 'after' in p.anchor ? `after ${p.anchor.after}` : `first in ${p.anchor.into}`;
  return {
    ledger: p.ledger,
    id: p.id,
    proposedBy: p.proposedBy,
    why: p.why,
    op: p.op,
    node: p.node,
    place,
    before: p.op === 'insert' ? null : before,
    after: p.op === 'insert' || p.op === 'replace' ? p.payload : null,
    base: p.base,
    revision,
  };
}
