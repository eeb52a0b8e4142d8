// One piece, for now: the write path's steps (lock, crash repair, working-file check, roles, replay
// key, base check, commit) in the order docs/store.md ("Writes") gives them; the steps move out to
// files of their own as the write path is split.
import { createHash } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId, checkNewLedgerId } from '../../model/check-ledger-id.js';
import { checkReason } from '../../model/check-reason.js';
import { diffCanvases } from '../../model/diff-canvases.js';
import { type Anchor, editTree } from '../../model/edit-tree.js';
import { indexNodes } from '../../model/index-nodes.js';
import { mintId } from '../../model/mint-id.js';
import { parseAuthor, type Author } from '../../model/parse-author.js';
import { type PayloadInput, payloadFromInput } from '../../model/payload-from-input.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import { serializeNode } from '../../model/serialize-node.js';
import { checkCanvasSize, checkNodeSize } from '../../model/size-limits.js';
import type { Canvas, CanvasNode, NodePayload, SectionNode } from '../../model/types.js';
import { type CanvasCommit, type CanvasOp, DOC_OPS, formatCommitMessage, parseCommit, type TrailerKey } from '../canvas-commit.js';
import { canvasNotFound } from '../canvas-not-found.js';
import { type CanvasFacts, canvasFacts, emptyFacts, foldCommit, saveFacts } from '../canvas-facts.js';
import { advanceRefsMarker } from '../canvas-refs-marker.js';
import { cachedCanvasTree, saveCanvasTree } from '../canvas-tree-cache.js';
import { commitsSince, resolveBase } from '../commits-since.js';
import { ensureRepo } from '../ensure-repo.js';
import { checkBaseOnChain } from './check-base-on-chain.js';
import { checkFigures } from '../check-figures.js';
import { checkRepoPath } from '../check-repo-path.js';
import { runGit } from '../git/git.js';
import { gitIdent } from '../git/git-ident.js';
import { guardOneNode } from '../guard-one-node.js';
import { markBaseRule } from '../base-rule-marker.js';
import { keepReflogs } from '../keep-reflogs.js';
import { editRecord } from '../edit-record.js';
import type { Applied, Conflict, DiffEntry, Outcome } from '../outcome.js';
import { idleMs } from '../git/git-handles.js';
import { RefUpdater } from '../git/ref-updater.js';
import { RepoReader } from '../repo-reader.js';
import { withRepoLock } from '../repo-lock.js';
import { type Grants, type Role, roleOf } from '../role.js';
import { rejectionOf } from '../rejection-of.js';
import { checkWorkingFiles } from './check-working-files.js';
import { noSpace } from '../no-space.js';
import { writeWorkingFile } from '../working-file.js';
import type { Workspace } from '../workspace.js';
import { writeObject } from '../git/write-object.js';
import { writeTree } from '../git/write-tree.js';

/** An edit as a caller gives it: the payload may still be an XML fragment or sugar. */
export type EditInput =
  | { op: 'create' }
  | { op: 'freeze' }
  | { op: 'insert'; payload: NodePayload | PayloadInput; anchor: Anchor }
  | { op: 'replace'; node: string; payload: NodePayload | PayloadInput }
  | { op: 'remove'; node: string }
  | { op: 'move'; node: string; anchor: Anchor };

/** The edit a write performs on the canvas document. */
type EditSpec =
  | { op: 'create' }
  | { op: 'freeze' }
  | { op: 'insert'; payload: NodePayload; anchor: Anchor }
  | { op: 'replace'; node: string; payload: NodePayload }
  | { op: 'remove'; node: string }
  | { op: 'move'; node: string; anchor: Anchor };

/** What every write carries besides its edit (docs/store.md "Writes"). */
export interface WriteCommon {
  /** The ledger id. */
  ledger: string;
  /** The reason: one line, required. */
  why: string;
  /** The author: `who[ | step:S][ | run:R]` or `who | by-hand`. */
  author: string;
  /** The revision the writer decided against: a revision of this canvas, 7+ hex characters (docs/store.md, "Staleness"). */
  base?: string | undefined;
  /** Strict: refuse if anything in this canvas changed since this revision of it (implies base). */
  require?: string | undefined;
  /** Scoped to the canvas and the who: a retry returns the original outcome. */
  idempotencyKey?: string | undefined;
}

/** An approval replaying a proposal through the write path (docs/roles.md "Proposals"). */
interface ApprovalHook {
  /** The proposal id. */
  proposal: string;
  /**
   * Called under the lock with the current revision: checks the proposal is still open and
   * returns the proposal file's new content (decided) and the proposer.
   */
  decide: (ctx: EditContext) => Promise<{ file: string; content: string; proposedBy: string; proposedWhy: string }>;
}

/** Extensions of the write path. */
export interface EditHooks {
  approval?: ApprovalHook;
}

/** The state a write sees under the lock. */
export interface EditContext {
  ws: Workspace;
  reader: RepoReader;
  ledger: string;
  author: Author;
  why: string;
  spec: EditSpec;
  main: string | null;
  revision: string | null;
  facts: CanvasFacts | null;
  canvas: Canvas | null;
  request: string;
  base: string | null;
  common: WriteCommon;
  /** The repository's `git update-ref --stdin`, started with the lock if it was not running. */
  refs: RefUpdater;
}

const KEY = /^[A-Za-z0-9._:-]{1,128}$/;

function anchorText(a: Anchor): string {
  return 'into' in a ? `into ${a.into}` : `after ${a.after}`;
}

/** A stable hash of a write request, recorded as `Canvas-Request` for idempotency. */
function requestHash(ledger: string, spec: EditSpec, common: WriteCommon): string {
  const parts: Record<string, unknown> = { ledger, op: spec.op, why: common.why, base: common.base ?? null, require: common.require ?? null };
  if ('node' in spec) parts.node = spec.node;
  if ('anchor' in spec) parts.anchor = anchorText(spec.anchor);
  if ('payload' in spec) parts.payload = serializeNode(spec.payload, { payload: true });
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/**
 * Clear what a crash inside the critical section can leave (docs/store.md "Concurrency and crashes"): stale ref lock
 * files (only ever cleared while holding the repository lock), and a canvas ref left one step
 * behind or ahead of main by a ref transaction that was cut short.
 */
async function recover(ctx: EditContext): Promise<void> {
  const gitDir = join(ctx.ws.repo, '.git');
  for (const p of ['refs/heads/main.lock', `refs/canvas/${ctx.ledger}.lock`, 'packed-refs.lock', 'HEAD.lock']) {
    const full = join(gitDir, p);
    if (existsSync(full)) unlinkSync(full);
  }
  if (!ctx.main) return;
  const head = await ctx.reader.commit(ctx.main);
  // A commit on main the store did not make: writing on top would build on changes nobody
  // checked (and the shared index it was made with may have dropped files). Refuse until it is
  // dealt with; `canvas verify` says what it changed.
  if (head && (!head.op || !head.ledger || head.parents.length > 1)) {
    const parent = head.parents[0];
    throw new CanvasError(
      'FOREIGN_COMMIT',
      `main's latest commit ${head.sha.slice(0, 12)} ("${head.subject.slice(0, 60)}") was not made by the tool; nothing is written on top of it`,
      `run \`canvas verify\` to see what it changed; to undo it, git -C ${ctx.ws.repo} update-ref refs/heads/main ${parent ?? '<parent>'} ${head.sha}`,
      { commit: head.sha },
    );
  }
  if (head?.ledger && head.ledger !== ctx.ledger) {
    const lock = join(gitDir, `refs/canvas/${head.ledger}.lock`);
    if (existsSync(lock)) unlinkSync(lock);
  }
  if (head?.ledger) {
    const ref = await ctx.reader.revision(head.ledger);
    const previous = head.trailers['Canvas-Previous'] ?? null;
    if (ref !== head.sha && (ref === previous || (ref === null && head.op === 'create'))) {
      await runGit(ctx.ws.repo, ['update-ref', `refs/canvas/${head.ledger}`, head.sha, ref ?? '0'.repeat(40)]);
      if (head.ledger === ctx.ledger) ctx.revision = head.sha;
    }
  }
  if (ctx.revision && ctx.revision !== ctx.main) {
    const rc = await ctx.reader.commit(ctx.revision);
    if (rc && rc.parents[0] === ctx.main) {
      const previous = rc.trailers['Canvas-Previous'] ?? null;
      await runGit(ctx.ws.repo, ['update-ref', `refs/canvas/${ctx.ledger}`, previous ?? '0'.repeat(40), ctx.revision]);
      ctx.revision = previous;
    }
  }
}

/**
 * Refuse a working file edited outside the tool; repair one a crash left lagging one revision
 * behind (docs/store.md, "Concurrency and crashes"): every file the canvas's latest commit may
 * have touched, not only the canvas file.
 *
 * @throws CanvasError `DIRTY_WORKTREE`
 */
export async function checkWorkingFile(ctx: EditContext): Promise<void> {
  await checkWorkingFiles(ctx.reader, ctx.ws.repo, ctx.ledger, ctx.revision);
}

/** The nodes a write checks against its base (docs/store.md "Staleness"). */
function checkedNodes(spec: EditSpec): string[] {
  const anchorId = (a: Anchor) => ('into' in a ? (a.into === 'root' ? null : a.into) : a.after);
  switch (spec.op) {
    case 'insert':
      return [anchorId(spec.anchor)].filter((x): x is string => x !== null);
    case 'replace':
    case 'remove':
      return [spec.node];
    case 'move':
      return [spec.node, anchorId(spec.anchor)].filter((x): x is string => x !== null);
    default:
      return [];
  }
}

/** Diff entries for some nodes between the base document and the current one, with commits. */
async function diffEntries(ctx: EditContext, baseSha: string, commits: CanvasCommit[], only: (id: string) => boolean): Promise<DiffEntry[]> {
  const byNode = new Map<string, CanvasCommit[]>();
  for (const c of commits) {
    if (!c.node || !DOC_OPS.has(c.op ?? '') || !only(c.node)) continue;
    const list = byNode.get(c.node) ?? [];
    list.push(c);
    byNode.set(c.node, list);
  }
  if (byNode.size === 0) return [];
  const baseBytes = await ctx.reader.file(baseSha, `${ctx.ledger}.xml`);
  const baseDoc = baseBytes ? parseCanvas(baseBytes.toString('utf8')) : null;
  const changes = diffCanvases(baseDoc, ctx.canvas);
  const out: DiffEntry[] = [];
  for (const ch of changes) {
    const cs = byNode.get(ch.node);
    if (cs) out.push({ ...ch, commits: cs.map(editRecord) });
  }
  for (const [node, cs] of byNode) {
    if (!out.some((e) => e.node === node)) {
      out.push({ node, change: 'replaced', before: null, after: null, commits: cs.map(editRecord) });
    }
  }
  return out;
}

/**
 * Apply one write through the store's single write path (docs/store.md "Writes", "Staleness", "Outcomes"; docs/roles.md). Validates the
 * reason, author, ledger id and base before anything is touched; under the repository lock it
 * repairs crash leftovers, checks the role, replays an idempotency key, refuses a working file
 * edited outside the tool, checks staleness, applies the edit, runs the one-node guard, commits
 * with the store's trailers and moves `main` and `refs/canvas/<ledger>` together.
 *
 * @param ws - the workspace
 * @param spec - the edit
 * @param common - ledger, reason, author, base, require, idempotency key
 * @param hooks - extensions used by proposals and approvals
 * @returns exactly one outcome: applied, proposed, conflict or rejected
 * @throws CanvasError `NO_ROLE` (exit 5) and internal errors (`GIT_FAILED`, `GIT_HELPER_FAILED`, `LOCK_TIMEOUT`,
 *   `REF_MOVED`); every other refusal is a `rejected` outcome
 */
export async function applyEdit(ws: Workspace, input: EditInput, common: WriteCommon, hooks: EditHooks = {}): Promise<Outcome> {
  try {
    const { ledger, why, author } = checkCommon(common);
    if (input.op === 'create') checkNewLedgerId(ledger);
    const needsBase = input.op !== 'create' && input.op !== 'freeze';
    const base = common.base ?? common.require;
    if (needsBase && base === undefined) {
      throw new CanvasError(
        'BASE_REQUIRED',
        `${input.op} needs --base <sha>: the revision you decided against`,
        `run \`canvas read ${ledger}\` first and pass its Canvas-Base: sha as --base`,
      );
    }
    const spec = toSpec(input);
    if ('payload' in spec) await checkFigures(spec.payload);
    // An approval's request names its proposal, so a key replays only the approval it was used for.
    const request = requestHash(ledger, spec, common) + (hooks.approval ? `:${hooks.approval.proposal}` : '');
    return await runLocked(ws, { ledger, why, author, spec, request, common }, (ctx) => underLock(ctx, hooks, base));
  } catch (e) {
    return rejectionOf(e);
  }
}

/**
 * Check what every write carries before anything is touched: the ledger id, the reason, the
 * author and the idempotency key's form.
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_REASON`, `BAD_AUTHOR`, `USAGE`
 */
export function checkCommon(common: WriteCommon): { ledger: string; why: string; author: Author } {
  const ledger = checkLedgerId(common.ledger);
  const why = checkReason(common.why);
  const author = parseAuthor(common.author);
  if (common.idempotencyKey !== undefined && !KEY.test(common.idempotencyKey)) {
    throw new CanvasError('USAGE', `idempotency key "${common.idempotencyKey}" must match ^[A-Za-z0-9._:-]{1,128}$`, 'use a short token such as a UUID');
  }
  return { ledger, why, author };
}

/** What {@link runLocked} needs to set up a write. */
export interface PreparedWrite {
  ledger: string;
  why: string;
  author: Author;
  spec: EditSpec;
  request: string;
  common: WriteCommon;
}

/**
 * Run a write under the repository lock with its context loaded: the repository exists (made on
 * create), crash leftovers are repaired, the canvas exists (or, for create, does not), and its
 * facts and current tree are read.
 *
 * @throws CanvasError `CANVAS_NOT_FOUND`, `CANVAS_EXISTS`, `LOCK_TIMEOUT`, `GIT_FAILED`,
 *   `GIT_HELPER_FAILED`, `USAGE` (a bad `CANVAS_GIT_IDLE_MS`)
 */
export async function runLocked(ws: Workspace, w: PreparedWrite, fn: (ctx: EditContext, current: Buffer | null) => Promise<Outcome>): Promise<Outcome> {
  const notFound = () =>
    new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${w.ledger} in ${ws.root}`, `create it first: canvas create ${w.ledger} --why "..."`, {
      ledger: w.ledger,
    });
  // A bad CANVAS_GIT_IDLE_MS is refused before anything, even the repository, is made.
  idleMs();
  if (w.spec.op === 'create') await ensureRepo(ws);
  else if (!existsSync(join(ws.repo, '.git'))) throw notFound();
  return withRepoLock(join(ws.repo, '.git'), async () => {
    // A repository made before the store kept reflogs, or a clone, starts keeping them now.
    await keepReflogs(ws.repo);
    await markBaseRule(ws.repo);
    const reader = new RepoReader(ws, { locked: true });
    // The write holds its git update-ref for as long as it holds the lock (docs/store.md,
    // "Long-lived git processes"): no idle close can come between taking it and using it.
    let releaseRefs = () => {};
    try {
      // Both refs are asked for at once; git update-ref starts (unless running) while they are read.
      const mainRead = reader.main();
      const revisionRead = reader.revision(w.ledger);
      revisionRead.catch(() => {});
      const refs = RefUpdater.shared(ws.repo);
      releaseRefs = refs.hold();
      const ctx: EditContext = {
        ws,
        reader,
        ledger: w.ledger,
        author: w.author,
        why: w.why,
        spec: w.spec,
        main: await mainRead,
        revision: await revisionRead,
        facts: null,
        canvas: null,
        request: w.request,
        base: null,
        common: w.common,
        refs,
      };
      await recover(ctx);
      if (w.spec.op === 'create') {
        if (ctx.revision) {
          throw new CanvasError('CANVAS_EXISTS', `canvas ${w.ledger} already exists (revision ${ctx.revision.slice(0, 12)})`, `read it: canvas read ${w.ledger}`, {
            ledger: w.ledger,
          });
        }
      } else if (!ctx.revision) {
        throw await canvasNotFound(ws, w.ledger, { name: w.spec.op, other: 'node' in w.spec ? w.spec.node : undefined }, reader);
      }
      const current = ctx.revision ? await reader.file(ctx.revision, `${w.ledger}.xml`) : null;
      if (ctx.revision) {
        ctx.facts = await canvasFacts(reader, w.ledger, ctx.revision, true);
        if (!current) throw new CanvasError('INTERNAL', `canvas ${w.ledger} has no ${w.ledger}.xml at ${ctx.revision}`, 'run `canvas verify`');
        ctx.canvas = cachedCanvasTree(join(ws.repo, '.git'), w.ledger, current);
      }
      return await fn(ctx, current);
    } finally {
      releaseRefs();
      reader.close();
    }
  });
}

/**
 * Replay an idempotency key (docs/roles.md "Idempotency"): the same key from the same who with the same
 * request returns the original outcome and writes nothing; with another request it is refused.
 *
 * @returns the original outcome, or null when the key is new (or none was given)
 * @throws CanvasError `IDEMPOTENCY_MISMATCH`
 */
export function replayKey(ctx: EditContext): Outcome | null {
  if (ctx.common.idempotencyKey === undefined || !ctx.facts) return null;
  const seen = ctx.facts.keys[`${ctx.author.who} ${ctx.common.idempotencyKey}`];
  if (!seen) return null;
  if (seen.request !== ctx.request) {
    throw new CanvasError(
      'IDEMPOTENCY_MISMATCH',
      `idempotency key ${ctx.common.idempotencyKey} was used by ${ctx.author.who} for another request (commit ${seen.commit.slice(0, 12)})`,
      'use a new key for a new request',
      { key: ctx.common.idempotencyKey, commit: seen.commit },
    );
  }
  if (seen.proposal && seen.op === 'propose') {
    return { outcome: 'proposed', proposalId: seen.proposal, revision: seen.commit, replayed: true };
  }
  return { outcome: 'applied', revision: seen.commit, node: seen.node, diff: [], replayed: true };
}

function toSpec(input: EditInput): EditSpec {
  if (!('payload' in input)) return input;
  const p = input.payload;
  const given = p !== null && typeof p === 'object' && 'type' in p;
  const payload = given ? p : payloadFromInput(p as PayloadInput);
  // A payload given as a tree is held to the node limit too (docs/canonical.md "Size limits").
  if (given) checkNodeSize(payload);
  return { ...input, payload } as EditSpec;
}

async function underLock(ctx: EditContext, hooks: EditHooks, base: string | undefined): Promise<Outcome> {
  const { reader, ledger, spec } = ctx;
  // Roles (docs/roles.md "Roles"): the creator is owner; no default role. Editors and owners apply;
  // a commenter's node edit becomes a proposal; a viewer's write is rejected.
  let mode: 'apply' | 'propose' = 'apply';
  if (spec.op !== 'create') {
    const role = await roleFor(ctx, ctx.author.who);
    if (role === null) throw noRole(ctx, hooks.approval ? 'editor' : spec.op === 'freeze' ? 'editor' : 'commenter');
    if (hooks.approval && role !== 'editor' && role !== 'owner') {
      throw new CanvasError(
        'ROLE_TOO_LOW',
        `${ctx.author.who} is ${role} on canvas ${ledger}; approving a proposal needs editor or owner`,
        `ask an owner of ${ledger} for editor: canvas grant ${ledger} ${ctx.author.who} editor --why "..."`,
        { who: ctx.author.who, role },
      );
    }
    if (role === 'viewer' || (role === 'commenter' && spec.op === 'freeze')) {
      throw new CanvasError(
        'ROLE_TOO_LOW',
        `${ctx.author.who} is ${role} on canvas ${ledger}; ${spec.op === 'freeze' ? 'freezing needs editor or owner' : 'a viewer cannot write or propose'}`,
        `ask an owner of ${ledger} to run: canvas grant ${ledger} ${ctx.author.who} ${spec.op === 'freeze' ? 'editor' : 'commenter'} --why "..."`,
        { who: ctx.author.who, role },
      );
    }
    if (role === 'commenter') mode = 'propose';
  }
  // Idempotency (docs/roles.md "Idempotency"): same key and request replays, another request is refused.
  // Checked before an approval's "still open?", so a retried approval returns its first outcome
  // instead of PROPOSAL_DECIDED (the proposal it decided is no longer open).
  const replay = replayKey(ctx);
  if (replay) return replay;
  // An approval: the proposal must still be open, checked before anything else about the edit.
  const approval = hooks.approval ? await hooks.approval.decide(ctx) : null;
  await checkWorkingFile(ctx);
  // Staleness (docs/store.md "Staleness").
  let since: CanvasCommit[] = [];
  let baseSha: string | null = null;
  if (base !== undefined && ctx.main) {
    baseSha = await resolveBase(reader, base);
    ctx.base = baseSha;
    const flag = ctx.common.base !== undefined ? '--base' : '--require';
    since = (await commitsSince(ctx.ws.repo, baseSha, ctx.main, flag, reader)).filter((c) => c.ledger === ledger);
    // A base must be a revision of this canvas (docs/store.md, "Staleness").
    await checkBaseOnChain(reader, ledger, ctx.revision!, baseSha, since, flag);
    if (ctx.common.require !== undefined) {
      const req = await resolveBase(reader, ctx.common.require, '--require');
      const sinceReq = req === baseSha ? since : (await commitsSince(ctx.ws.repo, req, ctx.main, '--require', reader)).filter((c) => c.ledger === ledger);
      await checkBaseOnChain(reader, ledger, ctx.revision!, req, sinceReq, '--require');
      const changed = sinceReq.filter((c) => DOC_OPS.has(c.op ?? ''));
      if (changed.length > 0) {
        const conflict: Conflict = {
          outcome: 'conflict',
          code: 'REQUIRE_CHANGED',
          node: 'node' in spec ? spec.node : null,
          expectedRevision: req,
          currentRevision: ctx.revision!,
          diff: await diffEntries(ctx, req, changed, () => true),
        };
        return conflict;
      }
    }
    const touched = new Set(since.filter((c) => DOC_OPS.has(c.op ?? '') && c.node).map((c) => c.node!));
    const present = ctx.canvas ? indexNodes(ctx.canvas) : new Map();
    for (const id of checkedNodes(spec)) {
      if (touched.has(id)) {
        return {
          outcome: 'conflict',
          code: 'STALE_BASE',
          node: id,
          expectedRevision: baseSha,
          currentRevision: ctx.revision!,
          diff: await diffEntries(ctx, baseSha, since, (n) => n === id),
        };
      }
      if (!present.has(id)) {
        throw new CanvasError('NODE_NOT_FOUND', `${id} is not a node of canvas ${ledger}`, `run \`canvas read ${ledger}\` to see the node ids`, {
          node: id,
          ledger,
        });
      }
    }
  }
  // The edit.
  let next: Canvas;
  let node: CanvasNode | null = null;
  let named: string | null = null;
  const trailers: Partial<Record<TrailerKey, string>> = {};
  switch (spec.op) {
    case 'create':
      next = { ledger, schema: '2', children: [] };
      break;
    case 'freeze':
      next = ctx.canvas!;
      break;
    case 'insert': {
      const existing = indexNodes(ctx.canvas!);
      const ids = new Set(ctx.facts!.ids);
      const id = mintId(ledger, ctx.revision!, serializeNode(spec.payload, { payload: true }), (x) => ids.has(x) || existing.has(x));
      ({ canvas: next, node } = editTree(ctx.canvas!, { op: 'insert', id, payload: spec.payload, anchor: spec.anchor }));
      named = id;
      break;
    }
    case 'replace':
      ({ canvas: next, node } = editTree(ctx.canvas!, { op: 'replace', node: spec.node, payload: spec.payload }));
      named = spec.node;
      break;
    case 'remove':
      ({ canvas: next } = editTree(ctx.canvas!, { op: 'remove', node: spec.node }));
      named = spec.node;
      break;
    case 'move': {
      const before = indexNodes(ctx.canvas!).get(spec.node);
      ({ canvas: next, node } = editTree(ctx.canvas!, { op: 'move', node: spec.node, anchor: spec.anchor }));
      named = spec.node;
      trailers['Canvas-From'] = before?.parent ?? 'root';
      trailers['Canvas-To'] = indexNodes(next).get(spec.node)?.parent ?? 'root';
      break;
    }
  }
  void node;
  if (mode === 'propose') return proposeEdit(ctx, next, spec, named);
  const extraFiles: Record<string, string> = {};
  if (hooks.approval && approval) {
    extraFiles[approval.file] = approval.content;
    trailers['Canvas-Proposal'] = hooks.approval.proposal;
    trailers['Canvas-Proposed-By'] = approval.proposedBy;
    trailers['Canvas-Proposed-Why'] = approval.proposedWhy;
  }
  const diff = baseSha ? await diffEntries(ctx, baseSha, since, (n) => n !== named) : [];
  const revision = await commitDocument(ctx, next, spec.op, named, trailers, extraFiles);
  const applied: Applied = { outcome: 'applied', revision, node: named, diff };
  return applied;
}

/** The proposal file of a commenter's write (docs/roles.md "Proposals"). */
export interface ProposalFile {
  id: string;
  ledger: string;
  op: 'insert' | 'replace' | 'remove' | 'move';
  /** The node the edit names (null for an insert: its id is minted on approval). */
  node: string | null;
  /** For insert and move: where it goes. */
  anchor: Anchor | null;
  /** For insert and replace: the payload's canonical XML. */
  payload: string | null;
  /** The revision the proposer decided against. */
  base: string;
  require: string | null;
  why: string;
  proposedBy: string;
  /**
   * The canvas's revision when it was proposed (a sha; the propose commit's date is the time).
   * Files written before the field had this name call it `proposedAt` (docs/roles.md).
   */
  proposedRevision: string;
  status: 'open' | 'approved' | 'rejected';
  decidedBy?: string;
  decision?: string;
}

/** Serialize a proposal file: sorted keys, two-space indent, one final newline. */
export function proposalJson(p: ProposalFile): string {
  const sorted = Object.fromEntries(Object.entries(p).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * Store a commenter's write as a proposal (docs/roles.md "Proposals"): the edit was checked in full
 * (staleness, schema, the one-node guard) against the current revision, and is recorded in its
 * own commit touching only `proposals/<ledger>/<id>.json`.
 */
async function proposeEdit(ctx: EditContext, next: Canvas, spec: EditSpec, named: string | null): Promise<Outcome> {
  guardOneNode(ctx.canvas, next, { op: spec.op as 'insert', node: named });
  // Refused now rather than at approval: an edit the canvas could never take is no proposal.
  checkCanvasSize(serializeCanvas(next), ctx.ledger, () => (ctx.canvas ? serializeCanvas(ctx.canvas) : ''));
  const id = createHash('sha256').update(`${ctx.ledger}\n${ctx.revision}\n${ctx.request}`).digest('hex').slice(0, 10);
  const file: ProposalFile = {
    id,
    ledger: ctx.ledger,
    op: spec.op as ProposalFile['op'],
    node: spec.op === 'insert' ? null : ((spec as { node: string }).node ?? null),
    anchor: 'anchor' in spec ? spec.anchor : null,
    payload: 'payload' in spec ? serializeNode(spec.payload, { payload: true }) : null,
    base: ctx.base ?? ctx.revision!,
    require: ctx.common.require ?? null,
    why: ctx.why,
    proposedBy: ctx.author.text,
    proposedRevision: ctx.revision!,
    status: 'open',
  };
  const trailers: Partial<Record<TrailerKey, string>> = { 'Canvas-Proposal': id };
  if (file.node) trailers['Canvas-Proposal-Node'] = file.node;
  const revision = await commitDocument(ctx, ctx.canvas!, 'propose', file.node, trailers, {
    [`proposals/${ctx.ledger}/${id}.json`]: proposalJson(file),
  });
  return { outcome: 'proposed', proposalId: id, revision };
}

/** The role a who holds on the canvas at its current revision (docs/roles.md "Roles"). */
export async function roleFor(ctx: EditContext, who: string): Promise<Role | null> {
  const bytes = await ctx.reader.file(ctx.revision!, `access/${ctx.ledger}.json`);
  const grants = bytes ? ((JSON.parse(bytes.toString('utf8')) as { grants: Grants }).grants ?? null) : null;
  return roleOf(grants, ctx.facts!.creator, who);
}

/** The error for a `who` holding no role on a canvas (exit 5). */
export function noRole(ctx: { ledger: string; author: Author; facts: CanvasFacts | null }, needed: Role): CanvasError {
  return new CanvasError(
    'NO_ROLE',
    `${ctx.author.who} has no role on canvas ${ctx.ledger}; this needs ${needed} (there is no default role)`,
    `ask an owner of ${ctx.ledger} (see \`canvas access ${ctx.ledger}\`; the creator is ${ctx.facts?.creator || 'unknown'}) to run: canvas grant ${ctx.ledger} ${ctx.author.who} ${needed} --why "..."`,
    { who: ctx.author.who, ledger: ctx.ledger, needed },
  );
}

/**
 * Write a commit object: in process when the dates are ones the store can format exactly as git
 * does (no date variables, or the ISO and raw forms tests use), else with `git commit-tree`.
 * The git author is the Canvas-Author text; the committer is `canvas`.
 *
 * @returns the commit's sha
 */
async function writeCommit(repo: string, tree: string, parent: string | null, name: string, email: string, message: string): Promise<string> {
  const now = new Date();
  const author = gitIdent(name, email, process.env.GIT_AUTHOR_DATE, now);
  const committer = gitIdent('canvas', '', process.env.GIT_COMMITTER_DATE, now);
  if (author && committer) {
    const body = `tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${author}\ncommitter ${committer}\n\n${message}`;
    return writeObject(join(repo, '.git'), 'commit', Buffer.from(body, 'utf8'));
  }
  const { stdout } = await runGit(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
    input: message,
    env: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' },
  });
  return stdout.trim();
}

/**
 * The document about to be written, as the parser reads it back, for the one-node guard. A write
 * changes the bytes of one element only: the named node's (with its subtree, for a moved
 * section); every other element keeps the bytes it has at the current revision, whose tree was
 * parsed from (or checked against) those bytes. So the named node is parsed back on its own, in
 * a canvas root as in the document, and put in its place; a create parses its whole (root-only)
 * document; a remove and the writes that leave the document as it is add no bytes to read.
 *
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING` when the bytes do not read back
 */
function readBack(next: Canvas, xml: string, op: string, node: string | null): Canvas {
  if (op === 'create') return parseCanvas(xml, next.ledger);
  const at = node !== null && (op === 'insert' || op === 'replace' || op === 'move') ? indexNodes(next).get(node) : undefined;
  if (!at) return next;
  const alone = serializeCanvas({ ...next, children: [at.node] });
  const back = parseCanvas(alone, next.ledger).children[0];
  if (!back || serializeCanvas({ ...next, children: [back] }) === alone) return next;
  const copy = structuredClone(next);
  const parentList = at.parent === 'root' ? copy.children : (indexNodes(copy).get(at.parent)!.node as SectionNode).children;
  parentList.splice(at.index, 1, back);
  return copy;
}

/**
 * The one private function that takes a whole document: it writes `next` as the canvas's new
 * revision, and it is guarded anyway (docs/store.md "Writes"): the one-node guard runs
 * against the current revision before any object is written.
 *
 * @returns the new revision's full sha
 */
export async function commitDocument(
  ctx: EditContext,
  next: Canvas,
  op: CanvasOp,
  node: string | null,
  trailers: Partial<Record<TrailerKey, string>>,
  extraFiles: Record<string, string>,
): Promise<string> {
  const { ws, reader, ledger } = ctx;
  const guardOp = op === 'propose' || op === 'reject' || op === 'grant' || op === 'revoke' ? 'freeze' : op;
  const xml = serializeCanvas(next);
  if (DOC_OPS.has(guardOp)) checkCanvasSize(xml, ledger, () => (ctx.canvas ? serializeCanvas(ctx.canvas) : ''));
  const reparsed = readBack(next, xml, guardOp, node);
  guardOneNode(ctx.canvas, reparsed, { op: guardOp, node: guardOp === 'freeze' ? null : node });
  const files: Record<string, string> = { ...extraFiles };
  if (DOC_OPS.has(guardOp) || op === 'create') files[`${ledger}.xml`] = xml;
  // Every working file the commit rewrites is checked before any object is written, so a link
  // on the way is refused with nothing written (docs/store.md, "Where the store writes").
  for (const path of new Set([...Object.keys(files), `${ledger}.xml`])) checkRepoPath(ws.repo, path);
  const gitDir = join(ws.repo, '.git');
  const changes = new Map<string, string>();
  for (const [path, content] of Object.entries(files)) changes.set(path, writeObject(gitDir, 'blob', Buffer.from(content, 'utf8')));
  const baseTree = ctx.main ? (await reader.commit(ctx.main))!.tree : null;
  const tree = changes.size === 0 && baseTree ? baseTree : await writeTree(ws.repo, reader, baseTree, changes);
  const all: Partial<Record<TrailerKey, string>> = {
    'Canvas-Op': op,
    'Canvas-Ledger': ledger,
    'Canvas-Author': ctx.author.text,
    ...trailers,
  };
  if (node !== null && DOC_OPS.has(op)) all['Canvas-Node'] = node;
  if (ctx.base && DOC_OPS.has(op)) all['Canvas-Base'] = ctx.base;
  if (ctx.revision) all['Canvas-Previous'] = ctx.revision;
  if (ctx.common.idempotencyKey !== undefined) {
    all['Canvas-Idempotency-Key'] = ctx.common.idempotencyKey;
    all['Canvas-Request'] = ctx.request;
  }
  const message = formatCommitMessage(op, node, ctx.why, all);
  const email = ctx.author.who.includes('@') ? ctx.author.who : '';
  const sha = await writeCommit(ws.repo, tree, ctx.main, ctx.author.text, email, message);
  let bothMoved = true;
  try {
    await ctx.refs.move([
      { ref: 'refs/heads/main', next: sha, old: ctx.main },
      { ref: `refs/canvas/${ledger}`, next: sha, old: ctx.revision },
    ]);
  } catch (e) {
    bothMoved = false;
    if (!(await mainIs(ws.repo, sha))) refused(e);
  }
  // The refs marker vouches for main only when the canvas ref moved with it (docs/store.md,
  // "Canvas refs"); otherwise the next command rebuilds the ref from main.
  if (bothMoved) advanceRefsMarker(gitDir, ctx.main, sha);
  // Applied: main moved, and that is the outcome (docs/store.md, "Concurrency and crashes"). The
  // working files follow the commit (the canvas file is always rewritten); one that cannot be
  // written (a full disk) is lagging, and the next command repairs it: not this write's failure.
  for (const [path, content] of Object.entries({ ...files, [`${ledger}.xml`]: xml })) {
    try {
      writeWorkingFile(ws.repo, path, content);
    } catch {
      // lagging: repaired by the next write or `canvas verify`
    }
  }
  const docBlob = changes.get(`${ledger}.xml`);
  if (docBlob !== undefined) saveCanvasTree(gitDir, ledger, docBlob, next);
  const facts = ctx.facts ?? emptyFacts();
  foldCommit(facts, parseCommit(sha, `tree ${tree}\nauthor ${ctx.author.text} <> 0 +0000\n\n${message}`));
  saveFacts(reader, ledger, facts);
  if (sha.startsWith('00')) {
    await runGit(ws.repo, ['maintenance', 'run', '--auto', '--quiet'], { allowFail: true }).catch(() => {});
  }
  return sha;
}

/** Whether `main` is at a commit, read afresh from the repository. */
async function mainIs(repo: string, sha: string): Promise<boolean> {
  const { stdout } = await runGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/heads/main'], { allowFail: true });
  return stdout.trim() === sha;
}

/**
 * A ref update that ended without moving `main`: nothing was applied (git moves `main` first,
 * then the canvas ref). Lack of space, which git reports only on stderr, is said as such
 * (`NO_SPACE`); anything else (a ref another writer moved: `REF_MOVED`) is thrown as the ref
 * update classified it.
 *
 * @param e - what the ref update threw (`REF_MOVED`, `GIT_HELPER_FAILED`, ...)
 * @throws CanvasError `NO_SPACE`, or `e` itself, always
 */
function refused(e: unknown): never {
  if (!(e instanceof CanvasError) || e.code === 'REF_MOVED') throw e;
  throw noSpace(String(e.data.stderr ?? e.message)) ?? e;
}
