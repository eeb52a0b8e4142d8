/**
 * Signal trials (docs/cli.md, "Signals"; docs/store.md, "Signals and the steps of a write"): the
 * CLI's own entry writes every kind of write and is stopped at each step of it by a hook
 * (test/cli/fixtures/signal-writer.ts), not by a sleep; there it gets SIGINT (to its process
 * group, as a terminal's Ctrl-C) or SIGTERM (to itself, as a runner's timeout), and the trial
 * checks that what it printed and its exit code agree with the repository:
 *
 * - stopped before the point of no return (`locked`, `checked`): nothing applied, exit 130 or
 *   143, `INTERRUPTED` printed (the error object with `--json`), no outcome;
 * - from the point of no return on (`commit`, `moved`, `files`, `done`): the write applied, its
 *   outcome printed with the revision main moved to, exit 0;
 * - at every stop, the writer is alone in its process group: git (the object reader, the ref
 *   transaction) runs in groups of its own, so a Ctrl-C never reaches it.
 *
 * A process ended by the signal itself (no exit code) is a lost outcome. Shared by the test
 * suite (one trial at each step of each kind) and `bench/signal-trials.ts` (both signals, many
 * rounds).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { SIGNAL_EXIT } from '../../src/cli/signal-guard.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { WRITE_STEPS, type WriteStep } from '../../src/store/repo/write-steps.js';
import { commandFor, KINDS, offMain, trialWorkspace } from './kill-trials.js';

/** The two signals. */
export type TrialSignal = keyof typeof SIGNAL_EXIT;

/** Options of {@link runSignalTrials}. */
export interface SignalTrialOptions {
  /** The bundled fixture (test/cli/fixtures/signal-writer.ts). */
  fixture: string;
  /** Rounds over every kind and step. */
  rounds: number;
  /** Send both signals at every step of every kind; otherwise one, alternating. */
  both: boolean;
  /** Called with one line per trial. */
  log?: (line: string) => void;
}

/** What a run of signal trials saw. */
export interface SignalTrialReport {
  trials: number;
  /** Trials by step, and by signal. */
  byStep: Record<string, number>;
  bySignal: Record<string, number>;
  /** Trials whose write was applied (main moved) and whose outcome was printed with exit 0. */
  applied: number;
  /** Trials stopped with nothing applied, exit 130 or 143. */
  stopped: number;
  /** One line per trial whose printed outcome or exit code disagreed with the repository. */
  failures: string[];
}

function main(ws: Workspace): string {
  return execFileSync('git', ['rev-parse', 'main'], { cwd: ws.repo, encoding: 'utf8' }).trim();
}

/** What a writer stopped at `step` and sent `signal` printed, and how it ended. */
interface Run {
  reached: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The other processes (`<pid> <name>`) in the writer's process group at each stop: none, or a Ctrl-C reaches them too. */
  grouped: string[];
}

/**
 * The processes in process group `group` (`<pid> <name>`), read from /proc: field 5 of
 * `/proc/<pid>/stat` is the group, after the name in parentheses.
 */
function groupMembers(group: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[2]) === group) found.push(`${pid} ${stat.slice(stat.indexOf('(') + 1, close)}`);
  }
  return found;
}

/**
 * Run the fixture with `args`, stop it `stops` times at `step`, and send `signal` at each stop:
 * SIGINT to its process group, SIGTERM to it alone.
 */
export function runStopped(fixture: string, ws: Workspace, args: string[], author: string, step: WriteStep, signal: TrialSignal, stops = 1): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, ...args], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root, CANVAS_AUTHOR: author, NO_COLOR: '1', SIGNAL_TRIAL_STEP: step, SIGNAL_TRIAL_STOPS: String(stops) },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const run: Run = { reached: false, code: null, signal: null, stdout: '', stderr: '', grouped: [] };
    child.stdout.on('data', (b) => (run.stdout += b));
    child.stderr.on('data', (b) => (run.stderr += b));
    (child.stdin as Writable).on('error', () => {});
    let partial = '';
    (child.stdio[3] as Readable).on('data', (b: Buffer) => {
      const lines = (partial + b.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const _ of lines) {
        run.reached = true;
        // The writer leads its group (detached); git must run in groups of its own.
        for (const m of groupMembers(child.pid!)) if (!m.startsWith(`${child.pid} `)) run.grouped.push(m);
        try {
          if (signal === 'SIGINT') process.kill(-child.pid!, signal);
          else process.kill(child.pid!, signal);
        } catch {
          // already gone
        }
        child.stdin.write('g');
      }
    });
    child.on('error', reject);
    child.on('close', (code, sig) => {
      run.code = code;
      run.signal = sig;
      resolve(run);
    });
  });
}

/** The revision a printed outcome names (`--json` or text), or null when it printed none. */
export function printedRevision(stdout: string, json: boolean): string | null {
  if (json) {
    const line = stdout.trim().split('\n').pop() ?? '';
    try {
      const o = JSON.parse(line) as { outcome?: string; revision?: string };
      return o.outcome === 'applied' || o.outcome === 'proposed' ? (o.revision ?? null) : null;
    } catch {
      return null;
    }
  }
  if (!/^(applied|proposed) /.test(stdout)) return null;
  return /^Canvas-Base: ([0-9a-f]{40})$/m.exec(stdout)?.[1] ?? null;
}

/** Whether a run printed `INTERRUPTED` (the error object with `--json`, else on stderr). */
function printedInterrupted(run: Run, json: boolean): boolean {
  if (!json) return run.stderr.includes('canvas: INTERRUPTED: ') && run.stdout === '';
  try {
    return (JSON.parse(run.stdout.trim()) as { error?: { code?: string } }).error?.code === 'INTERRUPTED';
  } catch {
    return false;
  }
}

/**
 * Run signal trials in a fresh workspace (removed with the test's temporary directories).
 *
 * @returns what the trials saw; `failures` lists every trial whose printed outcome or exit code
 *   disagreed with the repository, and any rule verify found broken at the end
 */
export async function runSignalTrials(options: SignalTrialOptions): Promise<SignalTrialReport> {
  const ws = await trialWorkspace();
  const report: SignalTrialReport = { trials: 0, byStep: {}, bySignal: {}, applied: 0, stopped: 0, failures: [] };
  const pointOfNoReturn = WRITE_STEPS.indexOf('commit');
  let i = 0;
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [k, kind] of KINDS.entries()) {
      for (const [s, step] of WRITE_STEPS.entries()) {
        const signals: TrialSignal[] = options.both ? ['SIGINT', 'SIGTERM'] : [(k + s + round) % 2 === 0 ? 'SIGINT' : 'SIGTERM'];
        for (const signal of signals) {
          i += 1;
          const c = await commandFor(ws, kind, i);
          const json = i % 2 === 0;
          const before = main(ws);
          const run = await runStopped(options.fixture, ws, json ? [...c.args, '--json'] : c.args, c.author, step, signal);
          const after = main(ws);
          const moved = after !== before;
          const label = `trial ${i} (${kind}, ${signal} at ${step}${json ? ', --json' : ''})`;
          const fail = (what: string) =>
            report.failures.push(`${label}: ${what}; exit ${run.code ?? run.signal}, stdout ${JSON.stringify(run.stdout.slice(0, 300))}, stderr ${JSON.stringify(run.stderr.slice(0, 300))}`);
          report.trials += 1;
          report.byStep[step] = (report.byStep[step] ?? 0) + 1;
          report.bySignal[signal] = (report.bySignal[signal] ?? 0) + 1;
          if (!run.reached) fail(`never reached ${step}`);
          else if (run.grouped.length > 0) fail(`a Ctrl-C reaches git too: ${run.grouped.join(', ')} in the writer's process group`);
          else if (run.signal !== null) fail(`ended by ${run.signal} itself with the write ${moved ? 'applied' : 'not applied'}: the caller cannot tell`);
          else if (moved !== s >= pointOfNoReturn) fail(`the write was ${moved ? '' : 'not '}applied`);
          else if (moved) {
            if (run.code !== 0) fail(`applied as ${after}, but the exit code says otherwise`);
            else if (printedRevision(run.stdout, json) !== after) fail(`applied as ${after}, but that outcome was not printed`);
            else report.applied += 1;
          } else if (run.code !== SIGNAL_EXIT[signal]) fail(`nothing applied, but the exit code is not ${SIGNAL_EXIT[signal]}`);
          else if (!printedInterrupted(run, json)) fail('nothing applied, but INTERRUPTED was not printed (or an outcome was)');
          else report.stopped += 1;
          options.log?.(`${label}: ${moved ? 'applied' : 'not applied'}, exit ${run.code ?? run.signal}`);
        }
      }
    }
  }
  const verified = await verifyWorkspace(ws);
  if (verified.violations.length > 0) report.failures.push(`verify after the trials: ${JSON.stringify(verified.violations)}`);
  const off = offMain(ws);
  if (off.length > 0) report.failures.push(`working files not equal to main after the trials: ${off.join(', ')}`);
  return report;
}
