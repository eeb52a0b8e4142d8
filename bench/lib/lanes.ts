// The runner's lanes (bench/run.ts, bench/lane.ts): the jobs of a run handed to two processes of
// their own, each job to the first lane free once the workspaces it reads are generated, so that a
// quick run keeps both cores busy (docs/performance.md, "The quick run"). A job that needs the
// machine to itself (a build that uses both cores, a latency) runs with the other lane idle, and
// two jobs reading the same workspace run one after the other.
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GrowthRow } from '../benchmarks/growth.js';
import type { BenchResult } from './context.js';
import type { WorkspaceSpec } from './generate-workspace.js';

/** What a lane is asked to do. */
type LaneJob = { kind: 'generate'; spec: WorkspaceSpec } | { kind: 'verify' } | { kind: 'growth' } | { kind: 'bench'; key: string };

/** A job as sent to a lane. */
export interface LaneOrder {
  id: number;
  job: LaneJob;
}

/** What a lane answers: the job's findings, the lines it printed, its seconds and CPU seconds. */
export interface LaneAnswer {
  id: number;
  log: string[];
  seconds: number;
  /** User + system CPU of the lane and of the processes it waited for during the job. */
  cpuSeconds: number;
  results?: BenchResult[];
  growth?: GrowthRow[];
  verify?: { ok: boolean; commits: number; canvases: number; violations: unknown[] };
  /** The job crashed: its stack. */
  error?: string;
}

/** One job of a run: its name, what it reads and makes, and whether it needs the machine to itself. */
export interface RunJob {
  name: string;
  job: LaneJob;
  /** Keys (`specKey`) of the workspaces it reads. */
  needs: string[];
  /** The key of the workspace it generates (a `generate` job). */
  makes?: string;
  alone: boolean;
}

/** The key of a workspace spec: two jobs reading the same workspace name the same key. */
export const specKey = (s: WorkspaceSpec): string => JSON.stringify(s);

/**
 * User + system CPU seconds of this process and of the children it has waited for
 * (`/proc/self/stat`, in clock ticks of 1/100 s), or of this process alone where there is no
 * `/proc`.
 */
export function cpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
}

/**
 * Run the jobs in `lanes` processes (bench/lane.ts). A lane takes the first job, in the order
 * given, whose workspaces are generated; a job marked `alone` starts only when every lane is idle
 * and keeps the others idle until it ends. A lane that dies fails its job and the rest are run by
 * the lanes left (none left: the remaining jobs fail).
 *
 * @param root - the project root: the lanes run in it, with the runner's own `execArgv`
 * @param done - called with each job and its answer as it ends, in the order they end
 * @param script - the lane's script (a test gives one of its own)
 */
export async function runLanes(
  root: string,
  quick: boolean,
  lanes: number,
  jobs: readonly RunJob[],
  done: (job: RunJob, answer: LaneAnswer, lane: number) => void,
  script = join(root, 'bench', 'lane.ts'),
): Promise<void> {
  const queue = [...jobs];
  const made = new Set<string>();
  // A workspace still to be generated holds back the jobs reading it; one whose generation failed
  // does not (the benchmark then generates it itself, or fails saying why).
  const making = new Set(jobs.flatMap((j) => (j.makes ? [j.makes] : [])));
  // Two jobs reading the same workspace never run at once: one may hold the repository's lock
  // or write its caches while the other copies it.
  const ready = (j: RunJob) => j.needs.every((k) => (made.has(k) || !making.has(k)) && ![...busy.values()].some((b) => b.job.needs.includes(k)));
  const busy = new Map<number, { job: RunJob; id: number }>();
  const children: ChildProcess[] = [];
  let nextId = 0;
  await new Promise<void>((resolve) => {
    const dispatch = () => {
      if (queue.length === 0 && busy.size === 0) {
        resolve();
        return;
      }
      const aloneRunning = [...busy.values()].some((b) => b.job.alone);
      for (let lane = 0; lane < children.length && !aloneRunning; lane += 1) {
        if (busy.has(lane) || !children[lane]!.connected) continue;
        let i = queue.findIndex((j) => !j.alone && ready(j));
        if (i < 0 && busy.size === 0) i = queue.findIndex((j) => j.alone && ready(j));
        if (i < 0) break;
        const [job] = queue.splice(i, 1);
        const id = nextId++;
        busy.set(lane, { job: job!, id });
        children[lane]!.send({ id, job: job!.job } satisfies LaneOrder);
        if (job!.alone) break;
      }
      if (busy.size === 0 && queue.length > 0) {
        // Nothing can start and nothing runs: every lane is gone, or a job waits on nothing that comes.
        for (const job of queue.splice(0)) done(job, { id: -1, log: [], seconds: 0, cpuSeconds: 0, error: 'no lane left to run it' }, -1);
        resolve();
      }
    };
    for (let lane = 0; lane < lanes; lane += 1) {
      const child = fork(script, quick ? ['--quick'] : [], { cwd: root, execArgv: process.execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
      children.push(child);
      child.on('message', (answer: LaneAnswer) => {
        const mine = busy.get(lane);
        if (!mine || mine.id !== answer.id) return;
        busy.delete(lane);
        if (mine.job.makes) {
          if (!answer.error) made.add(mine.job.makes);
          making.delete(mine.job.makes);
        }
        done(mine.job, answer, lane);
        dispatch();
      });
      child.on('exit', (code, signal) => {
        const mine = busy.get(lane);
        if (mine) {
          busy.delete(lane);
          if (mine.job.makes) making.delete(mine.job.makes);
          done(mine.job, { id: mine.id, log: [], seconds: 0, cpuSeconds: 0, error: `its lane exited (${signal ?? code})` }, lane);
        }
        dispatch();
      });
    }
    dispatch();
  });
  for (const child of children) if (child.connected) child.disconnect();
  await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r)))));
}
