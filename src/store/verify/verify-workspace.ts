// One piece: one replay of main whose checks share the state it carries from commit to commit
// (docs/store.md, "Verify"); the rule-by-rule checks that need none of it live in verify-*.ts
// beside it.
import { existsSync, lstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { checkReason } from '../../model/check-reason.js';
import { danglingLinks, type LinkedCanvas, type LinkWarning } from '../../model/dangling-links.js';
import { indexNodes } from '../../model/index-nodes.js';
import { linksOf } from '../../model/links-of.js';
import { parseAuthor } from '../../model/parse-author.js';
import { type CanonicalCanvas, parseCanonicalCanvas } from '../../model/parse-canonical-canvas.js';
import { decodeUtf8Strict } from '../../model/decode-utf8-strict.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import type { Canvas, CanvasNode } from '../../model/types.js';
import { type CanvasCommit, commitText, formatCommitMessage, parseCommit, TRAILER_ORDER, type TrailerKey } from '../repo/canvas-commit.js';
import { type CanvasFacts, emptyFacts, foldCommit } from '../repo/canvas-facts.js';
import { withoutCrud } from '../git/git-ident.js';
import { runGit } from '../git/git.js';
import { checkRepoPath } from '../files/check-repo-path.js';
import { guardOneNode } from '../write/guard-one-node.js';
import { baseRuleMarked, baseRuleSince, markBaseRule } from '../repo/base-rule-marker.js';
import { keepReflogs, reflogsToStart } from '../repo/keep-reflogs.js';
import { noSpace } from '../files/no-space.js';
import { permissionDenied, repoExists } from '../files/permission-denied.js';
import { canvasesOnMain, rebuildCanvasRefs } from '../repo/rebuild-canvas-refs.js';
import { removeQuietly } from '../files/remove-quietly.js';
import { RepoReader } from '../repo/repo-reader.js';
import { withRepoLock } from '../repo/repo-lock.js';
import { sweepInitDirs } from '../files/sweep-init-dirs.js';
import { sweepPrivateFiles } from '../files/sweep-private-files.js';
import { AuthorityReplay, type FileChange } from './verify-authority.js';
import { checkContent } from './verify-content.js';
import { checkReflogs } from './verify-reflogs.js';
import type { VerifyRule, Violation } from './verify-rules.js';
import { readWorkingFile, writeWorkingFile } from '../files/working-file.js';
import type { Workspace } from '../repo/workspace.js';
import { accessFile, canvasFile, PROPOSAL_ID, parseRepoPath, proposalFile } from '../repo/layout.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

export type { VerifyRule, Violation } from './verify-rules.js';

/** What `verify` found. */
export interface VerifyReport {
  ok: boolean;
  /** Commits replayed. */
  commits: number;
  /** Canvases seen. */
  canvases: number;
  violations: Violation[];
  /** What was repaired (working files left one revision behind by a crash, stale locks). */
  repaired: string[];
  /**
   * What verify would have repaired but could not write (a repository this user may only read,
   * a full disk): each says what and why. Not violations: what a crash leaves, which the next
   * command that can write repairs (docs/store.md, "Verify").
   */
  unrepaired: string[];
  /** `canvas:` links that point at nothing (docs/links.md, "Dangling links"): never a violation. */
  warnings: LinkWarning[];
}

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
interface Replay {
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

interface RawEntry {
  path: string;
  newSha: string;
  status: string;
}

interface LoggedCommit {
  commit: CanvasCommit;
  files: RawEntry[];
  committer: { name: string; email: string };
  authorEmail: string;
}

const DOC_OPS = new Set(['insert', 'replace', 'remove', 'move']);

/** Parse `git log --raw -z` output into commits with their changed paths. */
function parseLog(out: string): LoggedCommit[] {
  const result: LoggedCommit[] = [];
  for (const record of out.split('\x1e')) {
    if (record.trim() === '') continue;
    const end = record.indexOf('\x1f');
    const head = record.slice(0, end);
    const raw = record.slice(end + 1);
    const [sha, parents, tree, name, email, time, committerName, committerEmail, ...rest] = head.split('\x00');
    const text = commitText(tree, parents, name, time, rest.join('\x00'));
    const files: RawEntry[] = [];
    const parts = raw.replace(/^[\n\x00]+/, '').split('\x00');
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i]!.trim();
      const path = parts[i + 1]!;
      if (!meta.startsWith(':')) continue;
      const f = meta.slice(1).split(' ');
      files.push({ path, newSha: f[3] ?? '', status: f[4] ?? '' });
    }
    result.push({
      commit: parseCommit(sha!, text),
      files,
      committer: { name: committerName ?? '', email: committerEmail ?? '' },
      authorEmail: email ?? '',
    });
  }
  return result;
}

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

function listWorkingFiles(dir: string, root: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const rel = relative(root, p);
    if (rel === '.git') continue;
    // lstat: a link is listed as itself, never followed out of the repository.
    const folder = lstatSync(p).isDirectory();
    // A first create's private folder (a live one, or one a killed create left less than an hour
    // ago: docs/store.md, "Temporary files"), not a working file.
    if (folder && dir === root && /^\.canvas-init-\d+-\d+$/.test(name)) continue;
    if (folder) listWorkingFiles(p, root, out);
    else out.push(rel);
  }
}

/**
 * Verify the repository (docs/store.md, "Verify"; the acceptance ledger's `verify` is the model):
 * replay every commit of main against the rules, and compare the working tree with main. Each
 * commit must be a store commit (one parent, the store's subject and trailers, a valid reason
 * and author, the store's committer, `Canvas-Previous` naming the canvas's previous commit),
 * touch only the files its op may touch, leave a canonical, schema-valid document that passes the
 * one-node guard against the previous one and the write path's figure checks, with every node's
 * `v` equal to the number of commits naming it. Authority is replayed: its author held the role
 * its op needs at that point, from the access file's history, and every trailer agrees with the
 * access or proposal file it describes. Each `refs/canvas/<ledger>` must point at its canvas's
 * last commit; every value the reflogs of main and the canvas refs once held must still be in
 * the history; a facts cache that disagrees with the history is reported and removed. A working
 * file one revision behind (a write cut short by a crash) is repaired, not reported; any other
 * difference is reported as made outside the tool. Runs under the repository lock; its cost is
 * linear in the history (each commit costs the size of its document and the files it touched).
 *
 * @param ws - the workspace
 * @param options - `ledger` to report on one canvas only
 * @returns the report; `ok` is false when anything was found
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND` (a ledger with no commit on main and
 *   no ref), `GIT_FAILED`
 */
export async function verifyWorkspace(ws: Workspace, options: { ledger?: string | undefined } = {}): Promise<VerifyReport> {
  const only = options.ledger !== undefined ? checkLedgerId(options.ledger) : undefined;
  if (!repoExists(ws.repo)) {
    if (only) throw canvasNotFound(ws.root, only);
    return { ok: true, commits: 0, canvases: 0, violations: [], repaired: [], unrepaired: [], warnings: [] };
  }
  let locked = false;
  try {
    return await withRepoLock(join(ws.repo, '.git'), async () => {
      locked = true;
      const reader = new RepoReader(ws, { locked: true });
      try {
        return await verifyLocked(ws, reader, only, null);
      } finally {
        reader.close();
      }
    });
  } catch (e) {
    // A repository this user may only read, or a disk too full for the lock's file: verified
    // all the same, reading only, and what it would repair is said instead (docs/store.md, "Verify").
    const why = locked ? null : cannotWrite(e);
    if (why === null) throw e;
    const reader = new RepoReader(ws);
    try {
      return await verifyLocked(ws, reader, only, why);
    } finally {
      reader.close();
    }
  }
}

/**
 * Why a write failed, when it failed because the repository cannot be written (no space, or the
 * system refused this user), else null.
 */
function cannotWrite(e: unknown): string | null {
  const known = e instanceof CanvasError ? e : (noSpace(e) ?? permissionDenied(e));
  if (known?.code === 'NO_SPACE' || known?.code === 'PERMISSION_DENIED') return known.message;
  if (known?.code === 'GIT_FAILED' && /Permission denied|Read-only file system/.test(known.message)) return known.message;
  return null;
}

/** The facts caches in `.git/canvas-cache/` (not the `_`-named caches of the whole workspace; the other caches are in folders), by ledger. */
function readCaches(gitDir: string): Map<string, { facts: Record<string, unknown>; met: boolean }> {
  const dir = join(gitDir, 'canvas-cache');
  const out = new Map<string, { facts: Record<string, unknown>; met: boolean }>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || name.startsWith('_')) continue;
    let facts: unknown;
    try {
      facts = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      facts = null;
    }
    // A tree cache of the layout before trees/ (`<ledger>.tree.json`, a blob and a tree): no
    // canvas's facts, removed quietly (docs/store.md, "Derived facts cache").
    if (name.endsWith('.tree.json') && facts !== null && typeof facts === 'object' && 'blob' in facts && 'canvas' in facts) {
      removeQuietly(join(dir, name));
      continue;
    }
    out.set(name.slice(0, -'.json'.length), { facts: facts !== null && typeof facts === 'object' ? (facts as Record<string, unknown>) : {}, met: false });
  }
  return out;
}

function removeCache(gitDir: string, ledger: string): void {
  try {
    unlinkSync(join(gitDir, 'canvas-cache', `${ledger}.json`));
  } catch {
    // Already gone.
  }
}

/**
 * The replay, under the lock (`unwritable` null: repairs are written), or reading only
 * (`unwritable` says why the repository cannot be written: each repair is reported instead). A
 * repair that fails for lack of space or permission turns the rest read-only too.
 */
async function verifyLocked(ws: Workspace, reader: RepoReader, only: string | undefined, unwritable: string | null): Promise<VerifyReport> {
  const violations: Violation[] = [];
  const repaired: string[] = [];
  const unrepaired: string[] = [];
  const gitDir = join(ws.repo, '.git');
  let cannot = unwritable;
  /**
   * Run one repair if the repository can be written; else, or when it fails so, say it was not
   * (unless `what` is null: what it would have done is said in detail below).
   */
  const repair = async (what: string | null, fn: () => unknown): Promise<boolean> => {
    if (cannot === null) {
      try {
        await fn();
        return true;
      } catch (e) {
        cannot = cannotWrite(e);
        if (cannot === null) throw e;
      }
    }
    if (what !== null) unrepaired.push(`${what}: not done, the repository cannot be written (${cannot})`);
    return false;
  };
  for (const p of ['refs/heads/main.lock', 'packed-refs.lock', 'HEAD.lock']) {
    if (existsSync(join(gitDir, p)) && (await repair(`remove the stale lock .git/${p}`, () => unlinkSync(join(gitDir, p))))) {
      repaired.push(`removed the stale lock .git/${p}`);
    }
  }
  if (cannot === null) {
    for (const name of sweepPrivateFiles(gitDir)) {
      repaired.push(`removed .git/canvas-tmp/${name}, a temporary file its process (no longer running) never renamed into place`);
    }
    for (const name of sweepInitDirs(ws.repo)) {
      repaired.push(`removed ${name}, the folder a first create (no longer running) initialised the repository in`);
    }
  }
  // Reflogs a clone or an older repository lacks: started now, or, reading only, left out of
  // the reflog rule (they cannot hold a value yet) and said.
  const noReflog = new Set<string>();
  await repair(null, async () => {
    for (const ref of await keepReflogs(ws.repo)) {
      repaired.push(`${ref} had no reflog (the repository did not keep them yet): started it at its current value; values it held before cannot be checked`);
    }
  });
  if (cannot !== null) {
    for (const ref of (await reflogsToStart(ws.repo))?.keys() ?? []) {
      noReflog.add(ref);
      unrepaired.push(`start the reflog of ${ref} (the repository did not keep them yet): not done, the repository cannot be written (${cannot})`);
    }
  }
  // Canvas refs behind main: rebuilt, or, reading only, said once and not reported as `ref` too.
  const refsBehind = new Set<string>();
  await repair(null, async () => {
    for (const r of await rebuildCanvasRefs(ws)) repaired.push(`refs/canvas/${r.ledger} was ${r.from ? `at ${r.from.slice(0, 12)}` : 'missing'}, not the canvas's latest commit on main; rebuilt from main at ${r.to.slice(0, 12)}`);
  });
  const main = await reader.main();
  if (cannot !== null && main) {
    const { stdout: now } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']);
    const held = new Map(now.split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
    for (const [ledger, sha] of await canvasesOnMain(reader)) {
      if (held.get(ledger) === sha) continue;
      refsBehind.add(ledger);
      unrepaired.push(`rebuild refs/canvas/${ledger} from main (it is ${held.get(ledger)?.slice(0, 12) ?? 'missing'}, the canvas's latest commit on main is ${sha.slice(0, 12)}): not done, the repository cannot be written (${cannot})`);
    }
  }
  await repair(null, () => markBaseRule(ws.repo));
  // Unrecorded (reading only): from main as it is, as recording it now would say.
  const since = baseRuleMarked(ws.repo) === false ? main : await baseRuleSince(ws.repo);
  const asked = new Map<string, Promise<Buffer | null>>();
  const object = (sha: string) => {
    const early = asked.get(sha);
    asked.delete(sha);
    return early ?? reader.object(sha);
  };
  const replay: Replay = {
    canvases: new Map(),
    history: new Map(),
    authority: new AuthorityReplay(),
    caches: readCaches(gitDir),
    reader,
    writes: () => cannot === null,
    object,
    baseRule: since === null,
  };
  let count = 0;
  if (main) {
    const { stdout } = await runGit(ws.repo, [
      '-c', 'core.quotePath=false',
      'log', '--reverse', '--root', '--no-renames', '--raw', '--no-abbrev', '-z',
      '--format=%x1e%H%x00%P%x00%T%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%B%x1f',
      main,
    ]);
    let previousMain: string | null = null;
    const commits = parseLog(stdout);
    for (const [i, logged] of commits.entries()) {
      prefetch(commits, i, asked, reader);
      const c = logged.commit;
      count += 1;
      const report = (rule: VerifyRule, message: string, extra: Partial<Violation> = {}) => {
        violations.push({ rule, commit: c.sha, ...(c.ledger ? { ledger: c.ledger } : {}), message, ...extra });
      };
      await checkCommit(logged, previousMain, replay, report);
      replay.history.set(c.sha, c.ledger);
      if (c.sha === since) replay.baseRule = true;
      previousMain = c.sha;
    }
  }
  // The facts caches against the facts folded from the history (a cache is never an authority).
  for (const [ledger, cache] of replay.caches) {
    if (cache.met) continue;
    if (replay.writes()) removeCache(gitDir, ledger);
    violations.push({
      rule: 'cache',
      ledger,
      path: `.git/canvas-cache/${ledger}.json`,
      message: `the facts cache of ${ledger} is at ${String(cache.facts.revision).slice(0, 12)}, a revision canvas ${ledger} never had; ${replay.writes() ? 'it was removed' : 'remove it'} (the next write rebuilds it from the history)`,
    });
  }
  // Refs: each canvas ref at its canvas's last commit, and no ref without a canvas.
  const { canvases } = replay;
  const { stdout: refs } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']);
  const refMap = new Map(refs.split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
  for (const [ledger, state] of canvases) {
    if (refMap.get(ledger) !== state.revision && !refsBehind.has(ledger)) {
      violations.push({
        rule: 'ref',
        ledger,
        message: `refs/canvas/${ledger} is ${refMap.get(ledger)?.slice(0, 12) ?? 'missing'} but the canvas's last commit on main is ${state.revision.slice(0, 12)}`,
      });
    }
  }
  for (const ledger of refMap.keys()) {
    if (!canvases.has(ledger)) violations.push({ rule: 'ref', ledger, message: `refs/canvas/${ledger} names no canvas on main` });
  }
  // Truncation: every value the reflogs once held is still in the history.
  const logged = new Map<string, string>([...refMap].map(([ledger, sha]) => [`refs/canvas/${ledger}`, sha]));
  if (main) logged.set('refs/heads/main', main);
  for (const ref of noReflog) logged.delete(ref);
  violations.push(...(await checkReflogs(gitDir, logged, replay.history, reader)));
  // The working tree against main.
  if (main) await checkWorkingTree(ws, reader, main, violations, repaired, repair);
  const filtered = only
    ? violations.filter((v) => v.ledger === only || (v.ledger === undefined && (v.path === undefined || v.path.startsWith('refs/') || v.path.includes(only))))
    : violations;
  // A canvas is known by its commits on main or by its ref, whether or not its first commit is valid.
  if (only && !canvases.has(only) && !refMap.has(only) && ![...replay.history.values()].includes(only)) {
    throw canvasNotFound(ws.root, only);
  }
  const linked = new Map<string, LinkedCanvas>(
    [...canvases].map(([ledger, state]) => [ledger, state.canvas ? { nodes: new Set(indexNodes(state.canvas).keys()), links: linksOf(state.canvas) } : { nodes: null, links: [] }]),
  );
  const warnings = danglingLinks(linked, only ? [only] : [...canvases.keys()].sort());
  return { ok: filtered.length === 0, commits: count, canvases: only ? 1 : canvases.size, violations: filtered, repaired, unrepaired, warnings };
}

/** How many commits ahead the replay asks git for the files they changed. */
const AHEAD = 8;

/**
 * Ask git now for the files the commits up to {@link AHEAD} after `i` changed, so that git reads
 * and inflates them while the replay checks the commits before (the reader's requests are
 * answered in order, one process): the replay then waits for git about once, not once a commit.
 */
function prefetch(commits: readonly LoggedCommit[], i: number, asked: Map<string, Promise<Buffer | null>>, reader: RepoReader): void {
  const ahead = commits[i + AHEAD] ?? null;
  for (const logged of i === 0 ? commits.slice(0, AHEAD + 1) : ahead ? [ahead] : []) {
    for (const f of logged.files) {
      if (f.status.startsWith('D') || asked.has(f.newSha)) continue;
      const p = reader.object(f.newSha);
      p.catch(() => {});
      asked.set(f.newSha, p);
    }
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

async function checkCommit(
  logged: LoggedCommit,
  previousMain: string | null,
  replay: Replay,
  report: (rule: VerifyRule, message: string, extra?: Partial<Violation>) => void,
): Promise<void> {
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
  await replay.authority.check(c, await fileChanges(files, replay.object), { before, after: next }, replay.history, (rule, message, extra = {}) =>
    report(rule, message, extra),
  );
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

/** Compare a canvas's facts cache with the facts folded from the history, at the cache's revision. */
function checkCache(replay: Replay, ledger: string, facts: CanvasFacts, report: (rule: VerifyRule, message: string, extra?: Partial<Violation>) => void): void {
  const cache = replay.caches.get(ledger);
  if (!cache || cache.facts.revision !== facts.revision) return;
  cache.met = true;
  const want: Record<string, unknown> = JSON.parse(JSON.stringify(facts)) as Record<string, unknown>;
  // A cache written before it recorded the create commit is outdated, not wrong.
  if (!('created' in cache.facts)) delete want.created;
  // So is one written before it recorded the ending and the last run (the reader folds it again).
  if (!('ending' in cache.facts)) delete want.ending;
  if (!('lastRun' in cache.facts)) delete want.lastRun;
  if (isDeepStrictEqual(cache.facts, want)) return;
  const fields = Object.keys({ ...want, ...cache.facts }).filter((k) => !isDeepStrictEqual(cache.facts[k], want[k]));
  if (replay.writes()) removeCache(join(replay.reader.ws.repo, '.git'), ledger);
  report('cache', `the facts cache of ${ledger} disagrees with the history at this revision (${fields.join(', ')}); ${replay.writes() ? 'it was removed' : 'remove it'} (the next write rebuilds it)`, {
    path: `.git/canvas-cache/${ledger}.json`,
  });
}

/**
 * The rule `unsafe-path` (docs/store.md, "Where the store writes"): a tracked file, or a
 * directory above it, that is a symbolic link or not a regular file or directory. Reported, never
 * repaired: the store does not write through it, and what a link points to is left as it is.
 */
function unsafePath(repo: string, path: string): Violation | null {
  try {
    checkRepoPath(repo, path);
    return null;
  } catch (e) {
    if (!(e instanceof CanvasError) || e.code !== 'UNSAFE_PATH') throw e;
    const ledger = parseRepoPath(path)?.ledger;
    return { rule: 'unsafe-path', code: 'UNSAFE_PATH', path, ...(ledger ? { ledger } : {}), message: e.message };
  }
}

async function checkWorkingTree(
  ws: Workspace,
  reader: RepoReader,
  main: string,
  violations: Violation[],
  repaired: string[],
  repair: (what: string, fn: () => unknown) => Promise<boolean>,
): Promise<void> {
  const { stdout } = await runGit(ws.repo, ['-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', main]);
  const tracked = new Map<string, string>();
  for (const entry of stdout.split('\x00').filter(Boolean)) {
    const tab = entry.indexOf('\t');
    tracked.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[2]!);
  }
  const present: string[] = [];
  listWorkingFiles(ws.repo, ws.repo, present);
  for (const [path, sha] of tracked) {
    const unsafe = unsafePath(ws.repo, path);
    if (unsafe) {
      violations.push(unsafe);
      continue;
    }
    const want = await reader.object(sha);
    const have = readWorkingFile(ws.repo, path);
    if (want && have?.equals(want)) continue;
    // Lagging by one revision (a write cut short after its commit): repair it.
    const named = parseRepoPath(path);
    const ledger = named && (named.kind === 'canvas' || named.kind === 'access' || (named.kind === 'proposal' && PROPOSAL_ID.test(named.proposal!))) ? named.ledger : undefined;
    const revision = ledger ? await reader.revision(ledger) : null;
    const rc = revision ? await reader.commit(revision) : null;
    const previous = rc?.trailers['Canvas-Previous'];
    const before = previous ? await reader.file(previous, path) : null;
    if (want && (have === null || (before && have.equals(before)))) {
      const what = `${path} was ${have === null ? 'missing' : 'one revision behind'} (a write was cut short)`;
      if (await repair(`rewrite ${path} from main (it ${have === null ? 'is missing' : 'is one revision behind'})`, () => writeWorkingFile(ws.repo, path, want))) {
        repaired.push(`${what}; rewritten from main`);
      }
      continue;
    }
    violations.push({
      rule: 'working-tree',
      path,
      ...(ledger ? { ledger } : {}),
      message: `${path} differs from main: it was edited outside the tool`,
    });
  }
  for (const path of present) {
    if (!tracked.has(path)) {
      violations.push({ rule: 'working-tree', path, message: `${path} is not in main: it was added outside the tool` });
    }
  }
}
