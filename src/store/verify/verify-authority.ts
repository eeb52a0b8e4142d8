import { isDeepStrictEqual } from 'node:util';
import type { CanvasError, ErrorCode } from '../../model/canvas-error.js';
import { indexNodes } from '../../model/index-nodes.js';
import { parsePayload } from '../../model/parse-payload.js';
import { AUTHOR_PART } from '../../model/patterns.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { Canvas, CanvasNode } from '../../model/types.js';
import { accessJson } from '../repo/access-file.js';
import type { ProposalFile } from '../repo/proposal-file.js';
import { type CanvasCommit, DOC_OPS, whoOf } from '../repo/canvas-commit.js';
import { checkFigures } from '../write/check-figures.js';
import { type Grants, ROLES, type Role, roleOf, roleRank } from '../repo/role.js';
import type { VerifyRule } from './verify-rules.js';
import { accessFile, parseRepoPath, proposalFile } from '../repo/layout.js';

/** A change a commit made to a file `verify` replays authority from (an access or proposal file). */
export interface FileChange {
  path: string;
  /** The new bytes, or null when the commit deleted the file. */
  content: Buffer | null;
}

/** A canvas's document before a commit and after it (null where it does not parse). */
interface DocsAround {
  before: Canvas | null;
  after: Canvas | null;
}

/** The commits seen so far on main (a proposal's base must be one). */
interface SeenCommits {
  has(sha: string): boolean;
}

/** What the replay knows of one canvas's authority at a point of its history. */
interface Authority {
  /** The who of the create commit. */
  creator: string;
  /** The committed access file's grants, or null before the first grant. */
  grants: Grants | null;
  /** Proposal files by id: their parsed content, or null when a file does not parse. */
  proposals: Map<string, ProposalFile | null>;
}

/** Reports one violation of the commit being replayed. */
export type Report = (rule: VerifyRule, message: string, extra?: { code?: ErrorCode; path?: string }) => void;

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The payload form of a node as the proposal file records it (a section without its children). */
function payloadOf(node: CanvasNode): string {
  return serializeNode(node.type === 'section' ? { ...node, children: [] } : node, { payload: true });
}

/** The role a commit's op needs, and what to call it (docs/roles.md "Roles"). */
function needed(c: CanvasCommit): { role: Role; what: string } | null {
  switch (c.op) {
    case 'create':
      return null;
    case 'grant':
    case 'revoke':
      return { role: 'owner', what: `${c.op} is the owner's` };
    case 'propose':
      return { role: 'commenter', what: 'proposing needs commenter or above' };
    case 'reject':
      return { role: 'editor', what: 'rejecting a proposal needs editor or owner' };
    case 'freeze':
      return { role: 'editor', what: 'freezing needs editor or owner' };
    case 'abandon':
      return { role: 'editor', what: 'abandoning needs editor or owner' };
    default:
      return c.trailers['Canvas-Proposal'] !== undefined
        ? { role: 'editor', what: 'approving a proposal needs editor or owner' }
        : { role: 'editor', what: `applying ${c.op} needs editor or owner (a commenter's edit becomes a proposal)` };
  }
}

/**
 * Replays authority through a repository's history (docs/store.md, "Verify"): for every commit,
 * the role its author held at that point, from the access file's own history (the creator is
 * owner until the first grant), against the role its operation needs; and every trailer about
 * an access or proposal file against the file itself (`Canvas-Grant` against the access file's
 * diff, `Canvas-Proposal`, `Canvas-Proposal-Node`, `Canvas-Proposed-By` and `Canvas-Proposed-Why` against the proposal
 * file, an approval's edit against the proposal it approves). One pass, oldest commit first; each
 * commit costs the size of the files it touched, so the replay stays linear in the history.
 */
export class AuthorityReplay {
  private readonly canvases = new Map<string, Authority>();

  /**
   * Check one commit of a canvas, then apply its access and proposal changes.
   *
   * @param c - the commit (a store commit: op and ledger known)
   * @param changes - the access and proposal files of any canvas this commit touched, with their new bytes
   * @param docs - the canvas's document before the commit and after it (null where it does not parse)
   * @param history - every commit seen so far on main (a proposal's base must be one)
   * @param report - where violations go
   */
  async check(c: CanvasCommit, changes: FileChange[], docs: DocsAround, history: SeenCommits, report: Report): Promise<void> {
    const ledger = c.ledger!;
    const author = c.trailers['Canvas-Author'] ?? '';
    const who = whoOf(author);
    const state = this.canvases.get(ledger);
    const need = needed(c);
    if (need && state) {
      const role = roleOf(state.grants, state.creator, who);
      if (role === null || roleRank(role) < roleRank(need.role)) {
        report('authority', `${who} ${role === null ? 'held no role' : `was ${role}`} on canvas ${ledger} at this point; ${need.what}`, { code: role === null ? 'NO_ROLE' : 'ROLE_TOO_LOW' });
      }
    }
    const accessPath = accessFile(ledger);
    const access = changes.find((f) => f.path === accessPath);
    if ((c.op === 'grant' || c.op === 'revoke') && state) this.checkGrant(c, ledger, state, access, report);
    if (state) await this.checkProposal(c, ledger, state, changes, docs, history, report);
    if (c.op === 'create' && !state) this.canvases.set(ledger, { creator: who, grants: null, proposals: new Map() });
    this.apply(changes);
  }

  /** Apply access and proposal file changes (of any canvas) to the replayed state. */
  private apply(changes: FileChange[]): void {
    for (const f of changes) {
      const named = parseRepoPath(f.path);
      const state = named?.kind === 'access' || named?.kind === 'proposal' ? this.canvases.get(named.ledger) : undefined;
      if (!state) continue;
      if (named!.kind === 'access') {
        const file = f.content ? parseJson(f.content) : null;
        const grants = (file as { grants?: unknown } | null)?.grants;
        state.grants = grants !== null && typeof grants === 'object' && !Array.isArray(grants) ? (grants as Grants) : f.content ? {} : null;
      } else {
        if (f.content === null) state.proposals.delete(named!.proposal!);
        else state.proposals.set(named!.proposal!, (parseJson(f.content) as ProposalFile | undefined) ?? null);
      }
    }
  }

  /** A grant or revoke: its access file against the rules and against its `Canvas-Grant`. */
  private checkGrant(c: CanvasCommit, ledger: string, state: Authority, access: FileChange | undefined, report: Report): void {
    const path = accessFile(ledger);
    const trailer = c.trailers['Canvas-Grant'];
    if (!access?.content) {
      report('grant', `${c.op} ${access ? 'deletes' : 'does not change'} ${path}`, { path });
      return;
    }
    const file = parseJson(access.content) as { ledger?: unknown; grants?: unknown } | undefined;
    const grants = file?.grants;
    if (!file || file.ledger !== ledger || grants === null || typeof grants !== 'object' || Array.isArray(grants)) {
      report('grant', `${path} is not an access file of canvas ${ledger} ({"ledger", "grants"})`, { path });
      return;
    }
    const after = grants as Record<string, unknown>;
    for (const [w, role] of Object.entries(after)) {
      if (!ROLES.includes(role as Role)) report('grant', `${path} gives ${w} "${String(role)}", which is not a role`, { path, code: 'BAD_ROLE' });
      else if (w === '*' ? roleRank(role as Role) > roleRank('editor') : !AUTHOR_PART.test(w)) {
        report('grant', w === '*' ? `${path} gives * ${String(role)}; * can be at most editor` : `${path} grants "${w}", which is not a who`, { path });
      }
    }
    if (!Object.entries(after).some(([w, role]) => w !== '*' && role === 'owner')) {
      report('grant', `${path} leaves canvas ${ledger} without an owner`, { path, code: 'LAST_OWNER' });
    }
    if (access.content.toString('utf8') !== accessJson(ledger, after as Grants)) {
      report('grant', `${path} is not written as the store writes it (sorted grants, two-space indent)`, { path });
    }
    const before: Record<string, Role> = state.grants ?? { [state.creator]: 'owner' };
    const m = /^(\S+) (\S+)$/.exec(trailer ?? '');
    const expected: Record<string, unknown> | null = !m
      ? null
      : c.op === 'grant'
        ? { ...before, [m[1]!]: m[2]! }
        : m[2] === 'none'
          ? Object.fromEntries(Object.entries(before).filter(([w]) => w !== m[1]))
          : null;
    const same = (a: Record<string, unknown>, b: Record<string, unknown>) => isDeepStrictEqual(Object.entries(a).sort(), Object.entries(b).sort());
    if (!expected || same(before, after) || !same(expected, after)) {
      report('grant', `Canvas-Grant "${trailer ?? ''}" does not describe the change to ${path} (${JSON.stringify(before)} -> ${JSON.stringify(after)})`, { path });
    }
  }

  /** `Canvas-Proposal` and its neighbours against the proposal file, and an approval against its proposal. */
  private async checkProposal(c: CanvasCommit, ledger: string, state: Authority, changes: FileChange[], docs: DocsAround, history: SeenCommits, report: Report): Promise<void> {
    const id = c.trailers['Canvas-Proposal'];
    const approval = id !== undefined && DOC_OPS.has(c.op ?? '');
    if (c.op !== 'propose' && c.op !== 'reject' && !approval) return;
    if (id === undefined) {
      report('proposal', `${c.op} names no Canvas-Proposal`);
      return;
    }
    const path = proposalFile(ledger, id);
    const change = changes.find((f) => f.path === path);
    const after = change?.content ? ((parseJson(change.content) as ProposalFile | undefined) ?? null) : null;
    if (!change?.content || !after) {
      report('proposal', `${c.op} ${!change ? 'does not change' : change.content ? 'writes an unreadable' : 'deletes'} ${path}`, { path });
      return;
    }
    const node = c.trailers['Canvas-Proposal-Node'];
    if (c.op === 'propose') {
      const wrong: string[] = [];
      if (state.proposals.has(id)) wrong.push('the proposal already exists');
      if (after.id !== id || after.ledger !== ledger) wrong.push(`it is proposal ${String(after.id)} of ${String(after.ledger)}`);
      if (after.status !== 'open' || after.decidedBy !== undefined || after.decision !== undefined) wrong.push(`its status is ${String(after.status)}`);
      if (after.proposedBy !== c.trailers['Canvas-Author']) wrong.push(`proposedBy is "${String(after.proposedBy)}", the Canvas-Author "${c.trailers['Canvas-Author']}"`);
      if (after.why !== c.reason) wrong.push("its why is not the commit's reason");
      if (!DOC_OPS.has(after.op)) wrong.push(`its op is ${String(after.op)}`);
      if ((after.node ?? undefined) !== node || (after.op === 'insert') !== (after.node === null)) {
        wrong.push(`it names node ${String(after.node)}, Canvas-Proposal-Node ${node ?? 'none'}`);
      }
      if (typeof after.base !== 'string' || !history.has(after.base)) wrong.push(`its base ${String(after.base).slice(0, 12)} is not an earlier commit on main`);
      if ((after.op === 'insert' || after.op === 'move') !== (after.anchor !== null && typeof after.anchor === 'object')) wrong.push('its anchor does not fit its op');
      if (wrong.length > 0) report('proposal', `propose ${id}: ${path} disagrees with the commit: ${wrong.join('; ')}`, { path });
      if ((after.op === 'insert' || after.op === 'replace') !== (typeof after.payload === 'string')) {
        report('proposal', `propose ${id}: a ${String(after.op)} ${after.payload === null ? 'without' : 'with'} a payload`, { path });
      } else if (typeof after.payload === 'string') {
        try {
          await checkFigures(parsePayload(after.payload));
        } catch (e) {
          report('content', `propose ${id}: the payload would be refused at write time: ${(e as Error).message}`, { path, code: (e as CanvasError).code });
        }
      }
      return;
    }
    const before = state.proposals.get(id);
    if (before?.status !== 'open') {
      report('proposal', `${approval ? 'approves' : 'rejects'} proposal ${id}, which ${before ? `was already ${String(before.status)}` : 'does not exist'}`, { path });
      return;
    }
    const status = approval ? 'approved' : 'rejected';
    const expected: ProposalFile = { ...before, status, decidedBy: c.trailers['Canvas-Author'] ?? '', decision: c.reason };
    if (!isDeepStrictEqual(after, expected)) {
      report('proposal', `${path} is not proposal ${id} marked ${status} by the Canvas-Author with the commit's reason`, { path });
    }
    if (!approval) {
      if ((before.node ?? undefined) !== node) report('proposal', `reject: Canvas-Proposal-Node is ${node ?? 'missing'}, the proposal names ${String(before.node)}`, { path });
      return;
    }
    const wrong: string[] = [];
    const why = c.trailers['Canvas-Proposed-Why'];
    if (why !== undefined && why !== before.why) wrong.push("Canvas-Proposed-Why is not the proposer's reason");
    if (c.trailers['Canvas-Proposed-By'] !== before.proposedBy) wrong.push(`Canvas-Proposed-By is "${c.trailers['Canvas-Proposed-By'] ?? ''}", the proposer "${before.proposedBy}"`);
    if (c.op !== before.op) wrong.push(`the commit is a ${c.op}, the proposal a ${before.op}`);
    if (before.node !== null && c.trailers['Canvas-Node'] !== before.node) wrong.push(`it edits ${c.trailers['Canvas-Node'] ?? 'no node'}, the proposal ${before.node}`);
    if (c.trailers['Canvas-Base'] !== before.base) wrong.push("its Canvas-Base is not the proposal's base");
    const at = docs.after && c.trailers['Canvas-Node'] ? indexNodes(docs.after).get(c.trailers['Canvas-Node']) : undefined;
    if (at && typeof before.payload === 'string' && (c.op === 'insert' || c.op === 'replace')) {
      let proposed: string | null = null;
      try {
        proposed = serializeNode(parsePayload(before.payload), { payload: true });
      } catch {
        proposed = null;
      }
      if (proposed !== payloadOf(at.node)) wrong.push('the node written is not the payload proposed');
    }
    if (at && docs.after && before.anchor && (c.op === 'insert' || c.op === 'move')) {
      const a = before.anchor;
      const index = indexNodes(docs.after);
      const ok = 'into' in a ? at.parent === a.into && at.index === 0 : index.get(a.after)?.parent === at.parent && index.get(a.after)!.index + 1 === at.index;
      if (!ok) wrong.push(`the node is not placed ${'into' in a ? `into ${a.into}` : `after ${a.after}`} as proposed`);
    }
    if (wrong.length > 0) report('proposal', `approval of ${id}: ${wrong.join('; ')}`, { path });
  }
}
