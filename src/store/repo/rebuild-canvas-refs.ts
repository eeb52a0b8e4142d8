import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isLedgerId } from '../../model/check-ledger-id.js';
import { parseCommit } from './canvas-commit.js';
import { readRefsMarker, refMovedSinceMarker, writeRefsMarker } from './canvas-refs-marker.js';
import { runGit } from '../git/git.js';
import type { RepoReader } from './repo-reader.js';
import { withRepoLock } from './repo-lock.js';
import type { Workspace } from './workspace.js';
import { canvasFile, parseRepoPath } from './layout.js';

/** One canvas ref rebuilt from main: its value before (null: it was missing) and after. */
export interface RefRepair {
  ledger: string;
  from: string | null;
  to: string;
}

/** Called with the refs one rebuild repaired (never with an empty list). */
export type RefRepairListener = (repairs: readonly RefRepair[]) => void;

const listeners = new Set<RefRepairListener>();

/**
 * Be told when a command rebuilt canvas refs from main. The store never prints: the CLI listens
 * and reports each rebuild once on stderr.
 *
 * @param listener - called after each rebuild that changed a ref
 * @returns a function that stops listening
 */
export function onRefRepair(listener: RefRepairListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const ZERO = '0'.repeat(40);

/**
 * Each canvas's latest commit on main's history: one `git log` of main, newest first. With
 * `older`, the same walk also fills `older.latest` with each canvas's latest commit as of
 * `older.at`, a commit on main's first-parent line (absent from it: left empty).
 */
async function latestOnMain(repo: string, main: string, older?: { at: string; latest: Map<string, string> }): Promise<Map<string, string>> {
  const { stdout } = await runGit(repo, ['log', '--first-parent', '--format=%H%x00%B%x1e', main]);
  const latest = new Map<string, string>();
  let reached = false;
  for (const record of stdout.split('\x1e')) {
    const r = record.replace(/^\n/, '');
    const nul = r.indexOf('\x00');
    if (nul < 0) continue;
    const sha = r.slice(0, nul);
    reached ||= sha === older?.at;
    const ledger = parseCommit(sha, `tree -\n\n${r.slice(nul + 1)}`).ledger;
    // A ledger id names a ref: a hand-made trailer that is not one is left to `canvas verify`.
    if (ledger === undefined || !isLedgerId(ledger)) continue;
    if (!latest.has(ledger)) latest.set(ledger, sha);
    if (reached && older && !older.latest.has(ledger)) older.latest.set(ledger, sha);
  }
  return latest;
}

/**
 * Rebuild every `refs/canvas/<ledger>` from main (docs/store.md, "Canvas refs"): the refs are
 * derived state, and main's history is the authority. Each store commit names its canvas in
 * `Canvas-Ledger`, so one walk of main finds every canvas's latest commit; a ref that is missing
 * (a `git clone` brings main only), behind (a write cut short between its two ref updates, a
 * fetch of main) or anywhere else is set to it, in one `git update-ref --stdin` transaction with
 * the old values checked. Stale ref lock files of the refs it sets are removed first. Then the
 * marker records that the refs agree with main, and listeners are told what changed.
 *
 * Must run under the repository lock (the caller holds it: `canvas verify`, a write, or
 * {@link checkedRevision}).
 *
 * A caller that moved main on purpose (a follow of the shared remote, docs/remote.md "Crashes")
 * passes where main was: a ref that was at its canvas's latest commit as of then, or missing
 * for a canvas new since, is only following main, and listeners hear only of the other refs,
 * the ones that were wrong before main moved.
 *
 * @param ws - the workspace
 * @param movedFrom - where main stood before the caller moved it (null: there was no main), or
 *   undefined when main did not move on purpose
 * @returns the refs it changed, sorted by ledger id (empty when every ref agreed)
 * @throws CanvasError `GIT_FAILED`
 */
export async function rebuildCanvasRefs(ws: Workspace, movedFrom?: string | null): Promise<RefRepair[]> {
  const gitDir = join(ws.repo, '.git');
  const { stdout } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main', 'refs/canvas/']);
  const refs = new Map<string, string>();
  let main: string | null = null;
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [name, sha] = line.split(' ') as [string, string];
    if (name === 'refs/heads/main') main = sha;
    else refs.set(name.slice('refs/canvas/'.length), sha);
  }
  if (main === null) return [];
  const repairs: RefRepair[] = [];
  const older = { at: movedFrom ?? '', latest: new Map<string, string>() };
  for (const [ledger, sha] of [...(await latestOnMain(ws.repo, main, older))].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ref = refs.get(ledger) ?? null;
    if (ref !== sha) repairs.push({ ledger, from: ref, to: sha });
  }
  if (repairs.length > 0) {
    // Every ref writer holds the repository lock, so a ref lock file seen under it is stale.
    for (const p of ['packed-refs.lock', ...repairs.map((r) => `refs/canvas/${r.ledger}.lock`)]) {
      if (existsSync(join(gitDir, p))) unlinkSync(join(gitDir, p));
    }
    const input = repairs.map((r) => `update refs/canvas/${r.ledger} ${r.to} ${r.from ?? ZERO}\n`).join('');
    await runGit(ws.repo, ['update-ref', '-m', 'canvas: rebuilt from main', '--stdin'], { input });
  }
  try {
    writeRefsMarker(gitDir, main);
  } catch {
    // The marker is a cache: one that cannot be written (a full disk) costs the next command a walk.
  }
  const told = movedFrom === undefined ? repairs : repairs.filter((r) => r.from !== (older.latest.get(r.ledger) ?? null));
  if (told.length > 0) for (const listener of listeners) listener(told);
  return repairs;
}

/**
 * Whether a command about to use `refs/canvas/<ledger>` (or, with `ledger` null, every canvas
 * ref) must rebuild the refs first: missing, behind main, or moved off it (ahead of main, or
 * anywhere else). Cheap on the normal path: main through the open reader, the marker file and
 * the times of the marker and the ref; no walk.
 *
 * @param reader - an open reader of the repository
 * @param ledger - the canvas the command uses, or null for every canvas (a list or a build)
 * @param ref - that canvas's ref as just read (ignored when `ledger` is null)
 * @param refs - with `ledger` null: every canvas ref's ledger id
 */
export async function refsNeedRebuild(reader: RepoReader, ledger: string | null, ref: string | null, refs: ReadonlySet<string> = new Set()): Promise<boolean> {
  const main = await reader.main();
  if (main === null) return false;
  // main's newest commit is this canvas's: its ref agrees with main whatever else is wrong.
  if (ledger !== null && ref === main) return false;
  const gitDir = join(reader.ws.repo, '.git');
  if (readRefsMarker(gitDir) !== main) return true;
  // A ref moved since the marker was written, while main was not (a ref transaction killed
  // halfway, a hand update-ref), may name a commit that is not on main: two stat calls.
  if (refMovedSinceMarker(gitDir, ledger)) return true;
  // A write cut short between its two ref updates leaves main's newest commit ahead of its
  // canvas's ref, whatever the marker says: one more read through the batch.
  const head = await reader.commit(main);
  if (head?.ledger !== undefined && isLedgerId(head.ledger)) {
    const headRef = head.ledger === ledger ? ref : ((await reader.resolve(`refs/canvas/${head.ledger}`))?.sha ?? null);
    if (headRef !== main) return true;
  }
  // The marker vouches for main: only a ref removed since then (by hand) can be missing.
  if (ledger !== null) return ref === null && (await reader.file(main, canvasFile(ledger))) !== null;
  return (await canvasFilesAt(reader, main)).some((l) => !refs.has(l));
}

/**
 * The ledger ids of the canvas files (`<ledger>.xml`) at the root of a commit's tree, read through
 * the open reader (one tree object).
 *
 * @param reader - an open reader of the repository
 * @param commit - a commit sha
 */
export async function canvasFilesAt(reader: RepoReader, commit: string): Promise<string[]> {
  const tree = await reader.object(`${commit}^{tree}`);
  const out: string[] = [];
  if (!tree) return out;
  // A tree object: entries of `<mode> <name>\0<20-byte sha>`.
  let i = 0;
  while (i < tree.length) {
    const space = tree.indexOf(0x20, i);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    const mode = tree.subarray(i, space).toString('latin1');
    const name = tree.subarray(space + 1, nul).toString('utf8');
    const named = mode.startsWith('4') ? null : parseRepoPath(name);
    if (named?.kind === 'canvas') out.push(named.ledger);
    i = nul + 21;
  }
  return out;
}

/** The failures to take the lock or to repair after which a read answers from main. */
const READ_PAST = new Set<string | undefined>(['LOCK_TIMEOUT', 'NO_SPACE', 'UNSAFE_PATH', 'EACCES', 'EROFS', 'EPERM', 'ENOSPC']);

/**
 * Repair the canvas refs under the repository lock, or, when the lock is held by another live
 * process (a write, perhaps through all the push rounds of a shared remote, docs/remote.md
 * "Writes") or the repository cannot be written (a read-only checkout, a full disk: even the
 * lock's file cannot be made), answer from main without repairing: a read never waits on a
 * writer and never needs to write (docs/store.md, "Canvas refs"). Main is the authority and is
 * never behind the refs a holder is moving, so the answer is the one the repair would give; the
 * refs are left to the holder, or to the next command.
 *
 * @param gitDir - the repository's `.git` directory
 * @param repair - the repair, run under the lock, giving the answer
 * @param past - the answer read from main, without the lock and without writing
 * @returns the repair's answer, or past's
 * @throws CanvasError `GIT_FAILED` (from either), anything else the repair throws
 */
export async function repairOrReadPast<T>(gitDir: string, repair: () => Promise<T>, past: () => Promise<T>): Promise<T> {
  try {
    return await withRepoLock(gitDir, repair, 0);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!READ_PAST.has(code)) throw e;
    return past();
  }
}

/**
 * Every canvas's latest commit on main (ledger id to sha), read without the lock and without
 * writing: what `refs/canvas/*` hold once they agree with main (docs/store.md, "Canvas refs").
 *
 * @param reader - an open reader of the repository
 * @returns ledger id to the sha of its latest commit on main; empty before the first commit
 * @throws CanvasError `GIT_FAILED`
 */
export async function canvasesOnMain(reader: RepoReader): Promise<Map<string, string>> {
  const main = await reader.main();
  return main === null ? new Map() : latestOnMain(reader.ws.repo, main);
}

/**
 * The canvas's revision for a command, after rebuilding the canvas refs from main when this one
 * is missing or may be behind main's history of it (docs/store.md, "Canvas refs"): under the
 * repository lock (held already when `locked`, else taken only when free), checked again there,
 * then rebuilt. When another process holds the lock, or the repository cannot be written (a
 * read-only checkout), the canvas's latest commit on main is returned instead and the refs are
 * left as they are ({@link repairOrReadPast}).
 *
 * @param reader - an open reader of the repository
 * @param ledger - the ledger id
 * @param ref - `refs/canvas/<ledger>` as just read, or null
 * @param locked - true when the caller already holds the repository lock
 * @returns the ref's value once it agrees with main (null: no such canvas)
 * @throws CanvasError `GIT_FAILED`
 */
export async function checkedRevision(reader: RepoReader, ledger: string, ref: string | null, locked: boolean): Promise<string | null> {
  if (!(await refsNeedRebuild(reader, ledger, ref))) return ref;
  const resolve = async () => (await reader.resolve(`refs/canvas/${ledger}`))?.sha ?? null;
  const repair = async () => {
    const now = await resolve();
    if (await refsNeedRebuild(reader, ledger, now)) await rebuildCanvasRefs(reader.ws);
    return resolve();
  };
  if (locked) return repair();
  return repairOrReadPast(join(reader.ws.repo, '.git'), repair, async () => (await canvasesOnMain(reader)).get(ledger) ?? ref);
}
