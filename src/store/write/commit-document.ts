import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import { checkCanvasSize } from '../../model/size-limits.js';
import type { Canvas } from '../../model/types.js';
import { type CanvasOp, commitText, DOC_OPS, formatCommitMessage, parseCommit, type TrailerKey } from '../repo/canvas-commit.js';
import { emptyFacts, foldCommit, saveFacts } from '../repo/canvas-facts.js';
import { advanceRefsMarker } from '../repo/canvas-refs-marker.js';
import { saveCanvasTree } from '../repo/canvas-tree-cache.js';
import { checkRepoPath } from '../files/check-repo-path.js';
import { runGit } from '../git/git.js';
import { writeCommit } from '../git/write-commit.js';
import { writeObject } from '../git/write-object.js';
import { writeTree } from '../git/write-tree.js';
import { guardOneNode } from './guard-one-node.js';
import { pushWrite } from '../remote/push-write.js';
import { noSpace } from '../files/no-space.js';
import type { Applied } from '../repo/outcome.js';
import { writeWorkingFile } from '../files/working-file.js';
import { reachStep } from '../repo/write-steps.js';
import type { EditContext } from './edit-input.js';
import { readBack } from './read-back.js';
import { canvasFile } from '../repo/layout.js';

/**
 * The one private function that takes a whole document: it writes `next` as the canvas's new
 * revision, and it is guarded anyway (docs/store.md "Writes"): the one-node guard runs
 * against the current revision before any object is written.
 *
 * @returns the new revision's full sha
 */
export async function commitDocument(ctx: EditContext, next: Canvas, op: CanvasOp, node: string | null, trailers: Partial<Record<TrailerKey, string>>, extraFiles: Record<string, string>): Promise<string> {
  const { ws, reader, ledger } = ctx;
  const guardOp = op === 'propose' || op === 'reject' || op === 'grant' || op === 'revoke' || op === 'abandon' ? 'freeze' : op;
  const xml = serializeCanvas(next);
  if (DOC_OPS.has(guardOp)) checkCanvasSize(xml, ledger, () => (ctx.canvas ? serializeCanvas(ctx.canvas) : ''));
  const reparsed = readBack(next, xml, guardOp, node);
  guardOneNode(ctx.canvas, reparsed, { op: guardOp, node: guardOp === 'freeze' ? null : node });
  const files: Record<string, string> = { ...extraFiles };
  if (DOC_OPS.has(guardOp) || op === 'create') files[canvasFile(ledger)] = xml;
  // Every working file the commit rewrites is checked before any object is written, so a link
  // on the way is refused with nothing written (docs/store.md, "Where the store writes").
  for (const path of new Set([...Object.keys(files), canvasFile(ledger)])) checkRepoPath(ws.repo, path);
  const checked = reachStep({ step: 'checked', ledger });
  if (checked) await checked;
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
  // The point of no return (docs/store.md, "Signals and the steps of a write"): from here the
  // push or the ref update may land, so a caller holds its signals until the outcome is out.
  const committing = reachStep({ step: 'commit', ledger, revision: sha });
  if (committing) await committing;
  // With a shared remote the write is applied only once the remote took it (docs/remote.md, "Writes").
  if (ctx.remote) await pushWrite(ws.repo, ctx.remote, ledger, sha);
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
  const moved = reachStep({ step: 'moved', ledger, revision: sha });
  if (moved) await moved;
  // Applied: main moved, and that is the outcome (docs/store.md, "Concurrency and crashes"). The
  // working files follow the commit (the canvas file is always rewritten); one that cannot be
  // written (a full disk) is lagging, and the next command repairs it: not this write's failure.
  for (const [path, content] of Object.entries({ ...files, [canvasFile(ledger)]: xml })) {
    try {
      writeWorkingFile(ws.repo, path, content);
    } catch {
      // lagging: repaired by the next write or `canvas verify`
    }
  }
  const docBlob = changes.get(canvasFile(ledger));
  if (docBlob !== undefined) saveCanvasTree(gitDir, ledger, docBlob, next);
  const facts = ctx.facts ?? emptyFacts();
  foldCommit(facts, parseCommit(sha, commitText(tree, '', ctx.author.text, '0', message)));
  saveFacts(reader, ledger, facts);
  if (sha.startsWith('00')) {
    await runGit(ws.repo, ['maintenance', 'run', '--auto', '--quiet'], { allowFail: true }).catch(() => {});
  }
  const followed = reachStep({ step: 'files', ledger, revision: sha });
  if (followed) await followed;
  return sha;
}

/**
 * Commit a write that touches only files beside the document (grant, revoke, reject; docs/store.md
 * "Writes"): the document stays as it is, and the outcome names no node.
 *
 * @param node - the node the commit's message names (a rejected proposal's), or null
 * @param files - the files it writes, by path in the repository, with their new content
 * @returns the applied outcome, with the new revision
 */
export async function commitFiles(ctx: EditContext, op: 'grant' | 'revoke' | 'reject', node: string | null, trailers: Partial<Record<TrailerKey, string>>, files: Record<string, string>): Promise<Applied> {
  const revision = await commitDocument(ctx, ctx.canvas!, op, node, trailers, files);
  return { outcome: 'applied', revision, node: null, diff: [] };
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
