import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { danglingLinks, type LinkedCanvas, type LinkWarning } from '../../model/dangling-links.js';
import { indexNodes } from '../../model/index-nodes.js';
import { linksOf } from '../../model/links-of.js';
import { noSpace } from '../files/no-space.js';
import { permissionDenied, repoExists } from '../files/permission-denied.js';
import { sweepInitDirs } from '../files/sweep-init-dirs.js';
import { sweepPrivateFiles } from '../files/sweep-private-files.js';
import { runGit } from '../git/git.js';
import { baseRuleMarked, baseRuleSince, markBaseRule } from '../repo/base-rule-marker.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';
import { keepReflogs, reflogsToStart } from '../repo/keep-reflogs.js';
import { canvasesOnMain, rebuildCanvasRefs } from '../repo/rebuild-canvas-refs.js';
import { withRepoLock } from '../repo/repo-lock.js';
import { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import { readCaches, removeCache } from './check-caches.js';
import { checkCommit } from './check-commit.js';
import { checkWorkingTree } from './check-working-tree.js';
import { logOfMain, prefetch } from './read-log.js';
import type { Replay } from './replay-state.js';
import { AuthorityReplay } from './verify-authority.js';
import { checkReflogs } from './verify-reflogs.js';
import type { VerifyRule, Violation } from './verify-rules.js';

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

/**
 * Verify the repository (docs/store.md, "Verify"):
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
    for (const r of await rebuildCanvasRefs(ws))
      repaired.push(`refs/canvas/${r.ledger} was ${r.from ? `at ${r.from.slice(0, 12)}` : 'missing'}, not the canvas's latest commit on main; rebuilt from main at ${r.to.slice(0, 12)}`);
  });
  const main = await reader.main();
  if (cannot !== null && main) {
    const { stdout: now } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']);
    const held = new Map(
      now
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ') as [string, string]),
    );
    for (const [ledger, sha] of await canvasesOnMain(reader)) {
      if (held.get(ledger) === sha) continue;
      refsBehind.add(ledger);
      unrepaired.push(
        `rebuild refs/canvas/${ledger} from main (it is ${held.get(ledger)?.slice(0, 12) ?? 'missing'}, the canvas's latest commit on main is ${sha.slice(0, 12)}): not done, the repository cannot be written (${cannot})`,
      );
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
    let previousMain: string | null = null;
    const commits = await logOfMain(ws.repo, main);
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
  const refMap = new Map(
    refs
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
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
  const filtered = only ? violations.filter((v) => v.ledger === only || (v.ledger === undefined && (v.path === undefined || v.path.startsWith('refs/') || v.path.includes(only)))) : violations;
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
