import { changeOf, diffNode, type NodeChange } from '../../model/diff-canvases.js';
import { nodeStateInText } from '../../model/node-state-in-text.js';
import { parseAuthor } from '../../model/parse-author.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { type CanvasCommit, DOC_OPS, whoOf } from '../repo/canvas-commit.js';
import { editRecord } from '../repo/edit-record.js';
import type { EditRecord } from '../repo/outcome.js';
import { listProposals } from './list-proposals.js';
import { readAccess } from './read-access.js';
import { RepoReader } from '../repo/repo-reader.js';
import { type Role, roleOf, roleRank } from '../repo/role.js';
import { type Watch, watchesOf } from '../watch/watch-files.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasFile } from '../repo/layout.js';

/** One change on a watched canvas, as the inbox shows it (docs/store.md, "Watches and the inbox"). */
export interface InboxEvent extends EditRecord {
  ledger: string;
  /** What the commit did to its node (docs/diff.md), for an insert, replace, remove or move; else null. */
  diff: NodeChange | null;
  /** The proposal a propose, an approval or a reject names, and who proposed it. */
  proposal?: { id: string; proposedBy?: string };
  /** A grant or revoke: `<who> <role>` (`<who> none` for a revoke). */
  grant?: string;
  /** A freeze or abandon: the canvas's final report, its reason, inlined. */
  ending?: { kind: 'frozen' | 'abandoned'; report: string };
}

/** A proposal on a watched canvas waiting for a decision the watcher may take (editor or owner). */
export interface InboxProposal {
  ledger: string;
  id: string;
  op: 'insert' | 'replace' | 'remove' | 'move';
  node: string | null;
  proposedBy: string;
  /** The proposer's reason. */
  why: string;
  /** The revision the proposer decided against. */
  base: string;
}

/** One watched canvas in the inbox: where its events start and end. */
export interface InboxCanvas {
  ledger: string;
  /** The cursor the events start after (null when it was not known: then they start at the create). */
  cursor: string | null;
  /** The canvas's revision as read: what acknowledging this inbox moves the cursor to. */
  revision: string;
  /** How many events of this canvas the inbox shows (the watcher's own commits are not shown). */
  events: number;
  /** True when the cursor was unknown or not on the canvas's chain, so the whole history is shown. */
  cursorLost: boolean;
}

/** What {@link readInbox} returns. */
export interface Inbox {
  who: string;
  /** Every change since each cursor, oldest first. */
  events: InboxEvent[];
  /** Open proposals on watched canvases where the watcher is editor or owner: they stay until decided. */
  waiting: InboxProposal[];
  /** Every watched canvas; `revision` by ledger is what `ackInbox` takes. */
  canvases: InboxCanvas[];
}

/** How many commits' documents are read in one round trip. */
const CHUNK = 256;

/** The commits of a canvas after the cursor, oldest first, and whether the walk met the cursor. */
async function commitsAfter(reader: RepoReader, revision: string, cursor: string | null): Promise<{ commits: CanvasCommit[]; met: boolean }> {
  const commits: CanvasCommit[] = [];
  if (cursor === revision) return { commits, met: true };
  let met = false;
  for await (const c of reader.chain(revision, (c) => (met = c.sha === cursor))) commits.push(c);
  return { commits: commits.reverse(), met };
}

function eventOf(ledger: string, c: CanvasCommit, diff: NodeChange | null): InboxEvent {
  const e: InboxEvent = { ledger, ...editRecord(c), diff };
  const t = c.trailers;
  if (t['Canvas-Proposal'] !== undefined) {
    e.proposal = t['Canvas-Proposed-By'] !== undefined ? { id: t['Canvas-Proposal'], proposedBy: t['Canvas-Proposed-By'] } : { id: t['Canvas-Proposal'] };
  }
  if (t['Canvas-Grant'] !== undefined) e.grant = t['Canvas-Grant'];
  if (c.op === 'freeze' || c.op === 'abandon') e.ending = { kind: c.op === 'freeze' ? 'frozen' : 'abandoned', report: c.reason };
  return e;
}

/**
 * What a commit did to its node: the node's state cut out of the documents before and after it
 * (docs/canonical.md makes that exact: a test holds it to the whole document's), or, when a
 * document is not as the store writes it, both documents parsed whole.
 */
function changeAt(before: string | null, after: string | null, ledger: string, node: string): NodeChange | null {
  try {
    const was = before === null ? null : nodeStateInText(before, ledger, node);
    const now = after === null ? null : nodeStateInText(after, ledger, node);
    return changeOf(node, was, now);
  } catch {
    try {
      return diffNode(before === null ? null : parseCanvas(before, ledger), after === null ? null : parseCanvas(after, ledger), node);
    } catch {
      // A document that does not parse (canvas verify reports it) has no diff to show.
      return null;
    }
  }
}

/**
 * The events of one watched canvas: its commits after the cursor but the watcher's own, each
 * edit with its node's diff. The documents before and after each edit are read in rounds of
 * {@link CHUNK} commits through the open batch.
 */
async function canvasEvents(reader: RepoReader, who: string, watch: Watch, revision: string): Promise<{ events: InboxEvent[]; met: boolean }> {
  const { ledger } = watch;
  const { commits, met } = await commitsAfter(reader, revision, watch.cursor);
  const shown = commits.filter((c) => whoOf(c.trailers['Canvas-Author'] ?? c.authorName) !== who);
  const path = canvasFile(ledger);
  const events: InboxEvent[] = [];
  for (let i = 0; i < shown.length; i += CHUNK) {
    const part = shown.slice(i, i + CHUNK);
    const edits = new Set(part.filter((c) => DOC_OPS.has(c.op ?? '') && c.node !== undefined));
    const at = [...edits].flatMap((c) => [c.trailers['Canvas-Previous'] ?? '', c.sha]);
    const files = await reader.files(at.map((sha) => [sha, path] as const));
    const text = new Map(at.map((sha, k) => [sha, files[k]?.toString('utf8') ?? null]));
    for (const c of part) {
      const diff = edits.has(c) ? changeAt(text.get(c.trailers['Canvas-Previous'] ?? '') ?? null, text.get(c.sha) ?? null, ledger, c.node!) : null;
      events.push(eventOf(ledger, c, diff));
    }
  }
  return { events, met };
}

/**
 * The role of `who` on a canvas and, when it may decide them (editor or owner), the canvas's open
 * proposals; none for anyone else.
 */
async function accessOf(ws: Workspace, reader: RepoReader, who: string, ledger: string): Promise<{ role: Role | null; waiting: InboxProposal[] }> {
  const access = await readAccess(ws, { ledger }, reader);
  const role = roleOf(access.grants, access.creator, who);
  if (role === null || roleRank(role) < roleRank('editor')) return { role, waiting: [] };
  const waiting = (await listProposals(ws, { ledger }, reader)).filter((p) => p.status === 'open').map((p) => ({ ledger, id: p.id, op: p.op, node: p.node, proposedBy: p.proposedBy, why: p.why, base: p.base }));
  return { role, waiting };
}

/** Options of {@link readInbox}. */
export interface InboxOptions {
  /** Whose inbox: an author text, of which the `who` counts. */
  author: string;
  /**
   * Leave out the canvases on which the `who` holds no role (the MCP server's reads need viewer,
   * docs/roles.md): their watches stay, and show again once a role is granted.
   */
  viewersOnly?: boolean | undefined;
}

/**
 * The author's inbox (docs/store.md, "Watches and the inbox"): every change on the canvases
 * their `who` watches since each canvas's cursor, oldest first (by commit time; one canvas's in
 * the order of its chain), each with its commit, op, node, author, reason, date and, for an edit,
 * the node's diff; a freeze or abandon with its reason inlined as the final report; and, where
 * the `who` is editor or owner, every proposal still waiting for a decision. The watcher's own
 * commits are not shown (they wrote them), but the cursor passes over them when acknowledged.
 * Derived from the history and the cursors alone, and writes nothing: reading it again shows the
 * same events until {@link ackInbox} moves the cursors, so a reader that stops between reading
 * and acknowledging loses nothing.
 *
 * @param ws - the workspace
 * @param options - `author`: whose inbox (its `who`); `viewersOnly`: leave out the canvases it
 *   holds no role on
 * @returns the events, the proposals waiting, and each watched canvas with the revision an
 *   acknowledgement moves its cursor to
 * @throws CanvasError `BAD_AUTHOR`, `GIT_FAILED`, `GIT_HELPER_FAILED`
 */
export async function readInbox(ws: Workspace, options: InboxOptions): Promise<Inbox> {
  const { who } = parseAuthor(options.author);
  const watches = watchesOf(ws, who);
  const reader = new RepoReader(ws);
  const events: Array<{ e: InboxEvent; canvas: number; i: number }> = [];
  const canvases: InboxCanvas[] = [];
  const waiting: InboxProposal[] = [];
  try {
    for (const watch of watches) {
      const revision = await reader.revision(watch.ledger);
      if (!revision) continue;
      const access = await accessOf(ws, reader, who, watch.ledger);
      if (options.viewersOnly && access.role === null) continue;
      const got = await canvasEvents(reader, who, watch, revision);
      const n = canvases.length;
      for (const [i, e] of got.events.entries()) events.push({ e, canvas: n, i });
      canvases.push({ ledger: watch.ledger, cursor: watch.cursor, revision, events: got.events.length, cursorLost: !got.met });
      waiting.push(...access.waiting);
    }
  } finally {
    reader.close();
  }
  events.sort((a, b) => a.e.date.localeCompare(b.e.date) || a.canvas - b.canvas || a.i - b.i);
  return { who, events: events.map((x) => x.e), waiting, canvases };
}
