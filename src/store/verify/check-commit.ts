import type { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { checkReason } from '../../model/check-reason.js';
import { decodeUtf8Strict } from '../../model/decode-utf8-strict.js';
import { indexNodes } from '../../model/index-nodes.js';
import { parseAuthor } from '../../model/parse-author.js';
import { parseCanonicalCanvas } from '../../model/parse-canonical-canvas.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import type { Canvas, CanvasNode } from '../../model/types.js';
import { withoutCrud } from '../git/git-ident.js';
import { type CanvasCommit, formatCommitMessage, TRAILER_ORDER, type TrailerKey } from '../repo/canvas-commit.js';
import { emptyFacts, foldCommit } from '../repo/canvas-facts.js';
import { accessFile, canvasFile, parseRepoPath, proposalFile } from '../repo/layout.js';
import { guardOneNode } from '../write/guard-one-node.js';
import { checkCache } from './check-caches.js';
import type { LoggedCommit, RawEntry } from './read-log.js';
import type { Replay } from './replay-state.js';
import type { FileChange } from './verify-authority.js';
import { checkContent } from './verify-content.js';
import type { VerifyRule, Violation } from './verify-rules.js';

// One commit of main checked against the store's rules, carrying the replay's state to the next
// (docs/store.md, "Verify"): the commit's form, its chain, its files, its document, its authority.

const DOC_OPS = new Set(['insert', 'replace', 'remove', 'move']);

function allowedFiles(op: string, ledger: string, c: CanvasCommit): (path: string) => boolean {
  const proposal = c.trailers['Canvas-Proposal'];
  const isProposalFile = (p: string) => proposal !== undefined && p === proposalFile(ledger, proposal);
  switch (op) {
    case 'create':
    case 'insert':
    case 'replace':
    case 'remove':
    case 'move':
      return (p) => p === canvasFile(ledger) || (proposal !== undefined && isProposalFile(p));
    case 'grant':
    case 'revoke':
      return (p) => p === accessFile(ledger);
    case 'propose':
    case 'reject':
      return isProposalFile;
    default:
      return () => false;
  }
}

/** The access and proposal files a commit changed, with their new bytes (null when deleted). */
async function fileChanges(files: RawEntry[], object: (sha: string) => Promise<Buffer | null>): Promise<FileChange[]> {
  const out: FileChange[] = [];
  for (const f of files) {
    const kind = parseRepoPath(f.path)?.kind;
    if (kind !== 'access' && kind !== 'proposal') continue;
    out.push({ path: f.path, content: f.status.startsWith('D') ? null : await object(f.newSha) });
  }
  return out;
}

export async function checkCommit(logged: LoggedCommit, previousMain: string | null, replay: Replay, report: (rule: VerifyRule, message: string, extra?: Partial<Violation>) => void): Promise<void> {
  const { commit: c, files } = logged;
  const { canvases } = replay;
  if (c.parents.length !== (previousMain ? 1 : 0)) {
    report('commit', `a commit with ${c.parents.length} parents: main is linear, one parent per commit`);
  }
  if (logged.committer.name !== 'canvas' || logged.committer.email !== '') {
    report('committer', `the committer is "${logged.committer.name} <${logged.committer.email}>", not the store's "canvas <>"`);
  }
  if (!c.op || !c.ledger) {
    report('commit', `not made by the store: no Canvas-Op/Canvas-Ledger trailers (subject "${c.subject.slice(0, 60)}")`, {
      path: files.map((f) => f.path).join(', '),
    });
    return;
  }
  const ledger = c.ledger;
  const t = c.trailers;
  let who = '';
  try {
    checkLedgerId(ledger);
    checkReason(c.reason);
    who = parseAuthor(t['Canvas-Author']).who;
  } catch (e) {
    report('trailers', (e as Error).message, { code: (e as CanvasError).code });
  }
  const expected = formatCommitMessage(c.op, t['Canvas-Node'] ?? t['Canvas-Proposal-Node'] ?? null, c.reason, t as Partial<Record<TrailerKey, string>>);
  const unknown = Object.keys(t).filter((k) => !TRAILER_ORDER.includes(k as TrailerKey));
  if (expected.trimEnd() !== c.message.trimEnd() || unknown.length > 0) {
    report('trailers', `the message is not the store's: subject "<op> <node>: <reason>" then only Canvas-* trailers`);
  }
  // The git author is the Canvas-Author, as git writes a name (it trims `.`, `:` and the like
  // from both ends), with the who as email when it is an address.
  if (c.authorName !== withoutCrud(t['Canvas-Author'] ?? '') || logged.authorEmail !== withoutCrud(who.includes('@') ? who : '')) {
    report('trailers', `the git author "${c.authorName} <${logged.authorEmail}>" is not the Canvas-Author "${t['Canvas-Author'] ?? ''}"`);
  }
  const state = canvases.get(ledger);
  if (c.op === 'create') {
    if (state) report('chain', `a second create of canvas ${ledger}`);
    if (t['Canvas-Previous'] !== undefined) report('chain', 'create names a Canvas-Previous');
  } else if (!state) {
    report('chain', `${c.op} on canvas ${ledger}, which was never created`);
    return;
  } else if (t['Canvas-Previous'] !== state.revision) {
    report('chain', `Canvas-Previous is ${t['Canvas-Previous']?.slice(0, 12) ?? 'missing'}, but the canvas's previous commit is ${state.revision.slice(0, 12)}`);
  }
  const allowed = allowedFiles(c.op, ledger, c);
  for (const f of files) {
    if (!allowed(f.path)) report('files', `${c.op} may not touch ${f.path}`, { path: f.path });
  }
  const base = t['Canvas-Base'];
  if (DOC_OPS.has(c.op)) {
    if (base === undefined || !replay.history.has(base)) report('trailers', base === undefined ? `${c.op} has no Canvas-Base trailer` : `Canvas-Base ${base.slice(0, 12)} is not an earlier commit on main`);
    else if (replay.baseRule && replay.history.get(base) !== ledger) {
      // The write path's FOREIGN_BASE: the canvas's commits on main are its chain ("chain" checks that).
      const of = replay.history.get(base);
      report('base', `Canvas-Base ${base.slice(0, 12)} is ${of === undefined ? 'a commit of no canvas' : `a revision of canvas ${of}`}, not of canvas ${ledger}`, { code: 'FOREIGN_BASE' });
    }
    if (t['Canvas-Node'] === undefined) report('trailers', `${c.op} names no Canvas-Node`);
  }
  const docFile = files.find((f) => f.path === canvasFile(ledger));
  const before = state?.canvas ?? null;
  let next: Canvas | null = before;
  let xml = state?.xml ?? Buffer.alloc(0);
  let canonical = state?.canonical ?? null;
  if (docFile) {
    const bytes = await replay.object(docFile.newSha);
    xml = bytes ?? Buffer.alloc(0);
    // Most revisions change one node of a canonical document: only that node is parsed again.
    canonical = parseCanonicalCanvas(xml, ledger, canonical);
    if (canonical) next = canonical.canvas;
    else {
      try {
        // Strictly: bytes that are not UTF-8 are no text (docs/schema.md, "Characters").
        const text = decodeUtf8Strict(xml, canvasFile(ledger));
        next = parseCanvas(text, ledger);
        if (serializeCanvas(next) !== text) report('canonical', `${canvasFile(ledger)} is not in canonical form`, { path: canvasFile(ledger) });
      } catch (e) {
        report('schema', (e as Error).message, { code: (e as CanvasError).code, path: canvasFile(ledger) });
        next = null;
      }
    }
  }
  await replay.authority.check(c, await fileChanges(files, replay.object), { before, after: next }, replay.history, (rule, message, extra = {}) => report(rule, message, extra));
  const facts = state?.facts ?? emptyFacts();
  foldCommit(facts, c);
  checkCache(replay, ledger, facts, report);
  const counts = state?.counts ?? new Map<string, number>();
  const node = t['Canvas-Node'];
  if (node !== undefined && DOC_OPS.has(c.op)) counts.set(node, (counts.get(node) ?? 0) + 1);
  // A document that does not parse leaves the canvas at its last one that did, so that one
  // broken revision is reported once, not again by every commit after it.
  const keep = (canvas: Canvas | null, wrongVersions: string[]) =>
    canvases.set(ledger, { revision: c.sha, canvas, counts, wrongVersions, canonical: canvas === next ? canonical : (state?.canonical ?? null), xml, facts });
  if (!next) {
    keep(before, state?.wrongVersions ?? []);
    return;
  }
  if (docFile) await checkContent(before, next, (rule, message, extra = {}) => report(rule, message, { ...extra, path: canvasFile(ledger) }));
  const docOp = DOC_OPS.has(c.op) || c.op === 'create' ? c.op : 'freeze';
  let guarded = true;
  try {
    guardOneNode(before, next, {
      op: docOp as 'create' | 'insert' | 'replace' | 'remove' | 'move' | 'freeze',
      node: docOp === 'create' || docOp === 'freeze' ? null : (t['Canvas-Node'] ?? null),
    });
  } catch (e) {
    guarded = false;
    report('guard', (e as Error).message, { code: (e as CanvasError).code });
  }
  if (c.op === 'move' && node !== undefined && before) {
    const from = indexNodes(before).get(node)?.parent;
    const to = indexNodes(next).get(node)?.parent;
    if (t['Canvas-From'] !== from || t['Canvas-To'] !== to) {
      report('trailers', `move ${node}: Canvas-From/Canvas-To say ${t['Canvas-From']} -> ${t['Canvas-To']}, the document says ${from} -> ${to}`);
    }
  }
  const wrong = wrongVersions(next, counts, guarded && state ? { previous: state.wrongVersions, named: DOC_OPS.has(c.op) ? (node ?? null) : null } : null);
  for (const [id, v] of wrong) report('version', `node ${id} has v=${v} but ${counts.get(id) ?? 0} commit(s) name it`);
  keep(
    next,
    wrong.map(([id]) => id),
  );
}

/**
 * The nodes of a revision whose `v` is not the number of commits naming them, in document order
 * (docs/store.md, "Verify", the `version` rule). After a revision the one-node guard passed, only
 * the named node's `v` and count can have changed: the others are as they were, so the nodes
 * wrong before (still there) are wrong still, and only the named one is looked at anew, which
 * keeps a long history linear instead of walking every node at every commit.
 *
 * @param since - the nodes wrong at the revision before and the node this one names, or null to
 *   look at every node
 * @returns each such node's id and `v`
 */
function wrongVersions(canvas: Canvas, counts: ReadonlyMap<string, number>, since: { previous: readonly string[]; named: string | null } | null): Array<[string, number]> {
  if (since === null || since.previous.length > 0) {
    const out: Array<[string, number]> = [];
    for (const [id, e] of indexNodes(canvas)) if (e.node.v !== (counts.get(id) ?? 0)) out.push([id, e.node.v]);
    return out;
  }
  if (since.named === null) return [];
  const named = findNode(canvas.children, since.named);
  return named && named.v !== (counts.get(named.id) ?? 0) ? [[named.id, named.v]] : [];
}

/** A node by id, at the root or in a section. */
function findNode(children: readonly CanvasNode[], id: string): CanvasNode | null {
  for (const n of children) {
    if (n.id === id) return n;
    if (n.type === 'section') {
      const inner = findNode(n.children, id);
      if (inner) return inner;
    }
  }
  return null;
}
