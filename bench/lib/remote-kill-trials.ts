// Kill trials around the push (docs/remote.md, "Crashes"): a writer on a machine with a shared
// remote (a `git daemon` on 127.0.0.1) is killed with SIGKILL, it and its git processes, at an
// instant around its push: at random over a write's life, the moment the remote starts receiving
// its pack, the moment the remote locks its main, or the moment the writer's own ref update starts
// (the push done, the local refs not yet moved). After each kill, one `canvas sync` (in process);
// then this machine's main and canvas ref equal the remote's, the edit is in the remote's history
// once or not at all, verify is green, every working file equals main, and the next write is
// applied. At the end a second machine syncs and agrees. Shared by
// test/store/remote/remote-kill-trials.test.ts (a few trials) and bench/remote-kill-trials.ts (the full run).
import { execFileSync } from 'node:child_process';
import { existsSync, type FSWatcher, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { setRemote } from '../../src/store/remote/set-remote.js';
import { syncWorkspace } from '../../src/store/remote/sync-workspace.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { startGitDaemon } from './git-daemon.js';
import { startWriter } from './kill-group.js';
import { rng } from './random.js';

/** When the kill lands, in a write's order (docs/remote.md, "Writes"). */
export const TIMINGS = ['random', 'receiving', 'remote-ref', 'local-ref'] as const;

/** One of {@link TIMINGS}. */
type RemoteTiming = (typeof TIMINGS)[number];

/** What a run of trials saw. */
export interface RemoteTrialReport {
  trials: number;
  byTiming: Record<RemoteTiming, number>;
  /** Trials whose edit the remote held after the kill (the push had landed). */
  pushed: number;
  /** Of those, trials where this machine's main had not moved: the sync followed the remote. */
  followedBySync: number;
  /** One line per trial that broke a rule; empty when every trial recovered. */
  failures: string[];
}

/** Options of {@link runRemoteKillTrials}. */
export interface RemoteTrialOptions {
  /** How many trials, the timings in turn. */
  trials: number;
  /** Seeds the random instants, so a run can be repeated. */
  seed: number;
  /** The project's root (where `bin/canvas.js` is). */
  root: string;
  /** Called with one line per trial. */
  log?: (line: string) => void;
}

const AUTHOR = 'leo | by-hand';

const git = (dir: string, args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

/** Watch `dir` (made when missing) and call `hit` the first time a name matching `test` appears in it. */
function watchFor(dir: string, test: (name: string) => boolean, hit: () => void): FSWatcher {
  mkdirSync(dir, { recursive: true });
  return watch(dir, (_event, name) => {
    if (name !== null && test(String(name))) hit();
  });
}

/** The watchers that kill at `timing`'s instant (none for `random`). */
function killAt(timing: RemoteTiming, ws: Workspace, bare: string, kill: () => void): FSWatcher[] {
  switch (timing) {
    case 'random':
      return [];
    // The remote's receive-pack writes the pack into a quarantine directory before any ref moves.
    case 'receiving':
      return [watchFor(join(bare, 'objects'), (n) => n.startsWith('incoming-') || n.startsWith('tmp_'), kill)];
    // The remote has the pack and is moving its refs (it may finish without the writer).
    case 'remote-ref':
      return ['refs/heads', 'refs/canvas'].map((d) => watchFor(join(bare, d), (n) => n.endsWith('.lock'), kill));
    // The push succeeded; the writer is moving its own refs.
    case 'local-ref':
      return ['refs/heads', 'refs/canvas'].map((d) => watchFor(join(ws.repo, '.git', d), (n) => n.endsWith('.lock'), kill));
  }
}

/** Whether a `git receive-pack` is still at work in `bare` (its working directory there). */
function receiving(bare: string): boolean {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('receive-pack') && readlinkSync(`/proc/${pid}/cwd`) === bare) return true;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return false;
}

/**
 * Wait until the remote has finished with the killed writer's push: the daemon's receive-pack
 * outlives the client, and either moves the refs or drops the pack once it sees the client gone.
 */
async function remoteQuiet(bare: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (!receiving(bare)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`a receive-pack in ${bare} was still running 10 s after its client was killed`);
}

/** Working files that differ from main, or files of main missing from the working tree. */
function offMain(ws: Workspace): string[] {
  const paths = git(ws.repo, ['ls-tree', '-r', '--name-only', 'main']).split('\n').filter(Boolean);
  return paths.filter((p) => {
    const file = join(ws.repo, p);
    return !existsSync(file) || !readFileSync(file).equals(execFileSync('git', ['-C', ws.repo, 'show', `main:${p}`]));
  });
}

/** How many commits of the remote's main carry the reason `why`. */
function timesOnRemote(bare: string, why: string): number {
  return git(bare, ['log', '--format=%s', 'refs/heads/main'])
    .split('\n')
    .filter((s) => s.endsWith(`: ${why}`)).length;
}

/** A machine: its own workspace, the remote set. */
async function machine(base: string, name: string, url: string): Promise<Workspace> {
  const ws = resolveWorkspace({ workspace: mkdtempSync(join(base, `${name}-`)) });
  await setRemote(ws, url);
  return ws;
}

/**
 * Run kill trials against a fresh `git daemon` and bare repository (removed afterwards).
 *
 * @returns what the trials saw; `failures` lists every trial that did not recover by one sync
 */
export async function runRemoteKillTrials(options: RemoteTrialOptions): Promise<RemoteTrialReport> {
  const rand = rng(options.seed);
  const dir = mkdtempSync(join(tmpdir(), 'canvas-remote-kill-'));
  const bare = join(dir, 'shared.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const daemon = await startGitDaemon(dir, 'shared.git');
  const saved = process.env.CANVAS_LOCK_TIMEOUT_MS;
  process.env.CANVAS_LOCK_TIMEOUT_MS = '10000';
  const report: RemoteTrialReport = { trials: 0, byTiming: { random: 0, receiving: 0, 'remote-ref': 0, 'local-ref': 0 }, pushed: 0, followedBySync: 0, failures: [] };
  try {
    const url = daemon.url('shared.git');
    const ws = await machine(dir, 'writer', url);
    const other = await machine(dir, 'other', url);
    await createCanvas(ws, { ledger: 'c', why: 'kill trials around the push', author: AUTHOR });
    // How long one whole write takes here, so random kills spread over a writer's life.
    const started = performance.now();
    for (let w = 0; w < 2; w += 1) {
      const base = (await readCanvas(ws, { ledger: 'c' })).revision;
      const run = startWriter(options.root, ws.root, AUTHOR, ['insert', 'c', '--into', 'root', '--text', `Warm-up ${w}.`, '--base', base, '--why', `warm-up ${w}`]);
      await run.closed;
    }
    const life = (performance.now() - started) / 2;
    for (let i = 0; i < options.trials; i += 1) {
      const timing = TIMINGS[i % TIMINGS.length]!;
      const why = `trial ${i}`;
      const before = git(ws.repo, ['rev-parse', 'main']);
      const base = (await readCanvas(ws, { ledger: 'c' })).revision;
      const run = startWriter(options.root, ws.root, AUTHOR, ['insert', 'c', '--into', 'root', '--text', `Inserted ${i}.`, '--base', base, '--why', why]);
      const delay = Math.round(rand() * life * 1.1);
      const timer = timing === 'random' ? setTimeout(run.kill, delay) : null;
      const watchers = killAt(timing, ws, bare, run.kill);
      await run.closed;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
      run.kill();
      await remoteQuiet(bare);
      const label = `trial ${i} (${timing === 'random' ? `killed at ${delay} ms of ~${Math.round(life)}` : `killed at ${timing}`})`;
      const fail = (what: string) => report.failures.push(`${label}: ${what}`);
      report.trials += 1;
      report.byTiming[timing] += 1;
      const onRemote = timesOnRemote(bare, why);
      const localMoved = git(ws.repo, ['rev-parse', 'main']) !== before;
      if (onRemote > 0) report.pushed += 1;
      if (onRemote > 0 && !localMoved) report.followedBySync += 1;
      if (localMoved && onRemote === 0) fail('this machine moved without the remote');
      try {
        await syncWorkspace(ws);
      } catch (e) {
        fail(`the sync: ${e instanceof Error ? e.message : String(e)}`);
      }
      for (const ref of ['refs/heads/main', 'refs/canvas/c']) {
        if (git(ws.repo, ['rev-parse', ref]) !== git(bare, ['rev-parse', ref])) fail(`after one sync ${ref} is ${git(ws.repo, ['rev-parse', ref])} here, ${git(bare, ['rev-parse', ref])} on the remote`);
      }
      if (timesOnRemote(bare, why) !== onRemote || onRemote > 1) fail(`the edit is on the remote ${timesOnRemote(bare, why)} times (${onRemote} right after the kill)`);
      const verified = await verifyWorkspace(ws);
      if (verified.violations.length > 0) fail(`verify: ${JSON.stringify(verified.violations)}`);
      const off = offMain(ws);
      if (off.length > 0) fail(`working files not equal to main: ${off.join(', ')}`);
      const next = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text: `After ${i}.` }, base: (await readCanvas(ws, { ledger: 'c' })).revision, why: `after trial ${i}`, author: AUTHOR });
      if (next.outcome !== 'applied' || git(bare, ['rev-parse', 'refs/heads/main']) !== next.revision) fail(`the next write: ${JSON.stringify(next)}`);
      options.log?.(`${label}: ${onRemote > 0 ? (localMoved ? 'pushed and applied here' : 'pushed, followed by the sync') : 'not pushed'}`);
    }
    await syncWorkspace(other);
    if (git(other.repo, ['rev-parse', 'refs/heads/main']) !== git(bare, ['rev-parse', 'refs/heads/main'])) report.failures.push("the other machine's main is not the remote's after a sync");
    const verified = await verifyWorkspace(other);
    if (verified.violations.length > 0) report.failures.push(`verify on the other machine: ${JSON.stringify(verified.violations)}`);
    const subjects = git(bare, ['log', '--format=%s', 'refs/heads/main']).split('\n');
    if (new Set(subjects).size !== subjects.length) report.failures.push('a reason appears twice in the remote history');
  } finally {
    if (saved === undefined) delete process.env.CANVAS_LOCK_TIMEOUT_MS;
    else process.env.CANVAS_LOCK_TIMEOUT_MS = saved;
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}
