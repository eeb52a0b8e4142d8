/**
 * Kill trials (docs/store.md, "Concurrency and crashes"): writer processes of every kind of write
 * killed with SIGKILL, they and their git processes at once, at a random instant of their life or
 * the moment their ref update starts. After every kill, with no manual step: main is at the old
 * commit or a child of it, `verify` is green (repairing what the crash left), the next write is
 * applied, and every working file equals main. At the end, what the killed writers left in
 * `.git/canvas-tmp/`, aged past the hour, is removed by the next write (docs/store.md, "Temporary
 * files"). Shared by the test suite (a small sample) and
 * `bench/crash-trials.ts` (the full run).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, watch } from 'node:fs';
import { join } from 'node:path';
import { startWriter } from '../../bench/lib/kill-group.js';
import { rng } from '../../bench/lib/random.js';
import { indexNodes } from '../../src/model/index-nodes.js';
import { grantRole, revokeRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../src/store/write/node-writes.js';
import type { Proposed } from '../../src/store/repo/outcome.js';
import { readAccess } from '../../src/store/read/read-access.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { tempDir } from './temp-dir.js';

/** Every kind of write the trials cut short. */
export const KINDS = ['insert', 'replace', 'remove', 'move', 'grant', 'revoke', 'propose', 'approve', 'reject', 'freeze'] as const;

/** A kind of write. */
export type Kind = (typeof KINDS)[number];

/** When the kill lands. */
export type Timing = 'random' | 'ref-update';

/** What a run of trials saw. */
export interface TrialReport {
  trials: number;
  byKind: Record<string, number>;
  byTiming: Record<Timing, number>;
  /** Trials whose write had committed (main moved) when it was killed. */
  mainMoved: number;
  /** Trials that left the repository lock behind (killed inside the critical section). */
  lockLeft: number;
  /** Trials after which verify repaired something (a lagging file or ref, a stale lock). */
  repaired: number;
  /** Trials that left a private file in `.git/canvas-tmp/` (killed between writing and renaming it). */
  privateLeft: number;
  /** One line per trial that broke a rule; empty when every trial recovered. */
  failures: string[];
}

/** Options of {@link runKillTrials}. */
export interface TrialOptions {
  /** How many trials, spread over {@link KINDS} in turn and alternating the timing. */
  trials: number;
  /** Seeds the random instants, so a run can be repeated. */
  seed: number;
  /** The project's root (where `bin/canvas.js` is). */
  root: string;
  /** Called with one line per trial. */
  log?: (line: string) => void;
}

const OWNER = 'leo | by-hand';
const COMMENTER = 'cam';

function git(ws: Workspace, args: string[]): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8' }).trim();
}

/** The trials' workspace: canvas `c` with a section, four text nodes and the commenter `cam`. */
export async function trialWorkspace(): Promise<Workspace> {
  const ws = resolveWorkspace({ workspace: tempDir('canvas-kill-') });
  await createCanvas(ws, { ledger: 'c', why: 'kill trials', author: OWNER });
  await grantRole(ws, { ledger: 'c', who: COMMENTER, role: 'commenter', why: 'cam proposes', author: OWNER });
  let base = (await readCanvas(ws, { ledger: 'c' })).revision;
  const section = await insertNode(ws, { ledger: 'c', into: 'root', payload: { section: 'Notes' }, base, why: 'a place to move into', author: OWNER });
  base = section.outcome === 'applied' ? section.revision : base;
  for (const text of ['One.', 'Two.', 'Three.', 'Four.']) {
    const o = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text }, base, why: 'a node to edit', author: OWNER });
    if (o.outcome !== 'applied') throw new Error(`setup: ${JSON.stringify(o)}`);
    base = o.revision;
  }
  return ws;
}

/** The texts of the canvas as it is now, with their parents, and the section's id. */
async function state(ws: Workspace) {
  const r = await readCanvas(ws, { ledger: 'c' });
  const nodes = [...indexNodes(r.canvas).values()];
  const texts = nodes.filter((e) => e.node.type === 'text');
  const section = nodes.find((e) => e.node.type === 'section')!.node.id;
  return { revision: r.revision, texts, section };
}

/** A proposal made in process, for an approval or rejection to decide under the kill. */
async function propose(ws: Workspace, i: number): Promise<string> {
  const s = await state(ws);
  const o = await replaceNode(ws, { ledger: 'c', node: s.texts[0]!.node.id, payload: { text: `Proposed ${i}.` }, base: s.revision, why: `proposal ${i}`, author: COMMENTER });
  if (o.outcome !== 'proposed') throw new Error(`setup of trial ${i}: ${JSON.stringify(o)}`);
  return (o as Proposed).proposalId;
}

/**
 * The command line of trial `i` for `kind`. What the write needs is made first, in process and
 * untimed: a proposal to approve or reject, a grant to revoke (or none, to grant), a node to spare
 * for a remove.
 */
export async function commandFor(ws: Workspace, kind: Kind, i: number): Promise<{ args: string[]; author: string; kind: Kind }> {
  if (kind === 'grant' || kind === 'revoke') {
    const granted = (await readAccess(ws, { ledger: 'c' })).grants.bob !== undefined;
    if (granted === (kind === 'grant')) {
      const o = granted
        ? await revokeRole(ws, { ledger: 'c', who: 'bob', why: `setup of trial ${i}`, author: OWNER })
        : await grantRole(ws, { ledger: 'c', who: 'bob', role: 'viewer', why: `setup of trial ${i}`, author: OWNER });
      if (o.outcome !== 'applied') throw new Error(`setup of trial ${i}: ${JSON.stringify(o)}`);
    }
  }
  if (kind === 'remove' && (await state(ws)).texts.length <= 3) {
    const s = await state(ws);
    const o = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text: `Spare ${i}.` }, base: s.revision, why: `setup of trial ${i}`, author: OWNER });
    if (o.outcome !== 'applied') throw new Error(`setup of trial ${i}: ${JSON.stringify(o)}`);
  }
  const s = await state(ws);
  const why = ['--why', `trial ${i}`];
  const text = (n: number) => s.texts[n % s.texts.length]!.node.id;
  switch (kind) {
    case 'insert':
      return { kind, author: OWNER, args: ['insert', 'c', '--into', 'root', '--text', `Inserted ${i}.`, '--base', s.revision, ...why] };
    case 'replace':
      return { kind, author: OWNER, args: ['replace', 'c', text(i), '--text', `Replaced ${i}.`, '--base', s.revision, ...why] };
    case 'remove':
      return { kind, author: OWNER, args: ['remove', 'c', text(i), '--base', s.revision, ...why] };
    case 'move': {
      const t = s.texts[i % s.texts.length]!;
      const to = t.parent === 'root' ? s.section : 'root';
      return { kind, author: OWNER, args: ['move', 'c', t.node.id, '--into', to, '--base', s.revision, ...why] };
    }
    case 'grant':
      return { kind, author: OWNER, args: ['grant', 'c', 'bob', 'viewer', ...why] };
    case 'revoke':
      return { kind, author: OWNER, args: ['revoke', 'c', 'bob', ...why] };
    case 'propose':
      return { kind, author: COMMENTER, args: ['replace', 'c', text(i), '--text', `Proposal ${i}.`, '--base', s.revision, ...why] };
    case 'approve':
      return { kind, author: OWNER, args: ['approve', 'c', await propose(ws, i), ...why] };
    case 'reject':
      return { kind, author: OWNER, args: ['reject', 'c', await propose(ws, i), ...why] };
    case 'freeze':
      return { kind, author: OWNER, args: ['freeze', 'c', ...why] };
  }
}

/** Run the CLI to its end (for the warm-up that measures a writer's life). */
function runToEnd(root: string, ws: Workspace, args: string[], author: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'canvas.js'), ...args], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: author },
      stdio: 'ignore',
    });
    child.on('close', () => resolve());
  });
}

/**
 * Start a writer in its own process group and kill the group (the writer and its git processes)
 * with SIGKILL: after `delay` ms, or the moment a ref lock file appears (the ref update started).
 */
async function killWriter(root: string, ws: Workspace, args: string[], author: string, timing: Timing, delay: number): Promise<void> {
  const { kill, closed } = startWriter(root, ws.root, author, args);
  if (timing === 'random') {
    const timer = setTimeout(kill, delay);
    await closed;
    clearTimeout(timer);
  } else {
    const watchers = ['refs/heads', 'refs/canvas'].map((dir) =>
      watch(join(ws.repo, '.git', dir), (_event, name) => {
        if (String(name).endsWith('.lock')) kill();
      }),
    );
    await closed;
    for (const w of watchers) w.close();
  }
  kill();
}

/** Working files that differ from main, or files of main missing from the working tree. */
export function offMain(ws: Workspace): string[] {
  const paths = git(ws, ['ls-tree', '-r', '--name-only', 'main']).split('\n').filter(Boolean);
  return paths.filter((p) => {
    const file = join(ws.repo, p);
    return !existsSync(file) || readFileSync(file, 'utf8') !== execFileSync('git', ['show', `main:${p}`], { cwd: ws.repo, encoding: 'utf8' });
  });
}

/** Whether a process has the pid `pid` (0: never). */
function alive(pid: number): boolean {
  if (pid === 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The private files in `.git/canvas-tmp/` (docs/store.md, "Temporary files"). */
function privateFiles(ws: Workspace): string[] {
  const dir = join(ws.repo, '.git', 'canvas-tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/**
 * Run kill trials in a fresh workspace (removed afterwards).
 *
 * @returns what the trials saw; `failures` lists every trial that did not recover by itself
 */
export async function runKillTrials(options: TrialOptions): Promise<TrialReport> {
  const rand = rng(options.seed);
  const ws = await trialWorkspace();
  const saved = process.env.CANVAS_LOCK_TIMEOUT_MS;
  process.env.CANVAS_LOCK_TIMEOUT_MS = '10000';
  const report: TrialReport = { trials: 0, byKind: {}, byTiming: { random: 0, 'ref-update': 0 }, mainMoved: 0, lockLeft: 0, repaired: 0, privateLeft: 0, failures: [] };
  try {
    // How long one whole write takes here, so random kills spread over a writer's life.
    const started = performance.now();
    for (let w = 0; w < 3; w += 1) {
      const c = await commandFor(ws, 'replace', 1000 + w);
      await runToEnd(options.root, ws, c.args, c.author);
    }
    const life = (performance.now() - started) / 3;
    let privateBefore = privateFiles(ws).length;
    for (let i = 0; i < options.trials; i += 1) {
      const wanted = KINDS[i % KINDS.length]!;
      const timing: Timing = Math.floor(i / KINDS.length) % 2 === 0 ? 'random' : 'ref-update';
      const c = await commandFor(ws, wanted, i);
      const before = git(ws, ['rev-parse', 'main']);
      const delay = Math.round(rand() * life * 1.1);
      await killWriter(options.root, ws, c.args, c.author, timing, delay);
      const after = git(ws, ['rev-parse', 'main']);
      const label = `trial ${i} (${c.kind}, ${timing === 'random' ? `killed at ${delay} ms of ~${Math.round(life)}` : 'killed at the ref update'})`;
      const fail = (what: string) => report.failures.push(`${label}: ${what}`);
      report.trials += 1;
      report.byKind[c.kind] = (report.byKind[c.kind] ?? 0) + 1;
      report.byTiming[timing] += 1;
      if (existsSync(join(ws.repo, '.git', 'canvas.lock'))) report.lockLeft += 1;
      const left = privateFiles(ws).length;
      if (left > privateBefore) report.privateLeft += 1;
      if (after !== before) {
        report.mainMoved += 1;
        if (git(ws, ['rev-parse', `${after}^`]) !== before) fail(`main moved to ${after}, not a child of ${before}`);
      }
      const verified = await verifyWorkspace(ws);
      if (verified.violations.length > 0) fail(`verify: ${JSON.stringify(verified.violations)}`);
      if (verified.repaired.length > 0) report.repaired += 1;
      const s = await state(ws);
      const next = await replaceNode(ws, { ledger: 'c', node: s.texts[0]!.node.id, payload: { text: `After trial ${i}.` }, base: s.revision, why: 'the next write', author: OWNER });
      if (next.outcome !== 'applied') fail(`the next write: ${JSON.stringify(next)}`);
      const off = offMain(ws);
      if (off.length > 0) fail(`working files not equal to main: ${off.join(', ')}`);
      options.log?.(`${label}: ${after !== before ? 'committed' : 'not committed'}${verified.repaired.length > 0 ? `, verify repaired ${verified.repaired.length}` : ''}`);
      privateBefore = privateFiles(ws).length;
    }
    // Every private file left is a killed writer's: once an hour old, the next write removes it.
    const hoursAgo = Date.now() / 1000 - 2 * 3600;
    for (const name of privateFiles(ws)) utimesSync(join(ws.repo, '.git', 'canvas-tmp', name), hoursAgo, hoursAgo);
    const s = await state(ws);
    await replaceNode(ws, { ledger: 'c', node: s.texts[0]!.node.id, payload: { text: 'After the trials.' }, base: s.revision, why: 'the sweep', author: OWNER });
    // A pid some live process took since (the machine is shared) keeps its file, by the rule.
    const kept = privateFiles(ws).filter((name) => !alive(Number(/\.(\d+)\.[0-9a-f]{8}$/.exec(name)?.[1] ?? 0)));
    if (kept.length > 0) report.failures.push(`private files the killed writers left, kept by the next write: ${kept.join(', ')}`);
  } finally {
    if (saved === undefined) delete process.env.CANVAS_LOCK_TIMEOUT_MS;
    else process.env.CANVAS_LOCK_TIMEOUT_MS = saved;
    rmSync(ws.root, { recursive: true, force: true });
  }
  return report;
}
