// Timing: whole processes and in-process calls, run interleaved with their baseline so that a
// noisy machine slows both sides of each pair alike, summarised as the median and spread of the
// per-pair ratio. A process is timed twice over: wall time, and the CPU time (user + sys) of the
// process and of every descendant it waited for, which is what the work costs whatever else the
// machine is doing (docs/performance.md, "Method").
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The median and spread of a list of numbers. */
export interface Stats {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  n: number;
}

/** The linear-interpolated quantile q (0..1) of sorted numbers. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Summarise numbers as median, quartiles and extremes. */
export function stats(values: readonly number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), p25: quantile(s, 0.25), p75: quantile(s, 0.75), min: s[0] ?? Number.NaN, max: s[s.length - 1] ?? Number.NaN, n: s.length };
}

/** One side's cost: wall milliseconds and CPU milliseconds (user + sys, children included). */
export interface Sample {
  ms: number;
  cpuMs: number;
}

/** What one timed process did. */
export interface Timed extends Sample {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The script that times a command: bash's `time` reads getrusage of the child it waited for
 * (microseconds; the child's own waited-for children included) and prints wall, user and sys
 * in milliseconds on fd 3, while the command keeps the caller's stdin, stdout and stderr.
 */
const TIMER = 'TIMEFORMAT="%3R %3U %3S"; exec 4>&2; { time "$@" 2>&4 3>&- 4>&-; } 2>&3';

/**
 * Run a process to its end and time it: wall time from start to exit, and CPU time (user + sys)
 * of the process and its children. Runs under `bash`, whose own start is in neither figure.
 *
 * @throws Error when it exits non-zero and `allowFail` is not set
 */
export function timeProcess(cmd: string, args: readonly string[], options: SpawnSyncOptions & { allowFail?: boolean } = {}): Timed {
  const r = spawnSync('bash', ['-c', TIMER, 'bench', cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, ...options, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  if (r.error) throw r.error;
  const times = /^(\d+\.\d+) (\d+\.\d+) (\d+\.\d+)\s*$/.exec(String(r.output[3] ?? ''));
  if (!times) throw new Error(`${cmd} could not be timed: ${String(r.output[3] ?? '')}${String(r.stderr ?? '').slice(0, 2000)}`);
  const [, real, user, sys] = times.map(Number) as [number, number, number, number];
  const out: Timed = { ms: real * 1000, cpuMs: (user + sys) * 1000, code: r.status ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  if (out.code !== 0 && !options.allowFail) {
    throw new Error(`${cmd} ${args.join(' ').slice(0, 200)} exited ${out.code}: ${out.stderr.slice(0, 2000)}`);
  }
  return out;
}

/** The sum of samples (a baseline made of several processes). */
export function plus(...samples: readonly Sample[]): Sample {
  return { ms: samples.reduce((t, s) => t + s.ms, 0), cpuMs: samples.reduce((t, s) => t + s.cpuMs, 0) };
}

/**
 * The CPU milliseconds (user + sys) of the children this process has waited for so far, from
 * `/proc/self/stat` (clock ticks, 10 ms each here): for processes run concurrently, whose
 * difference over a run of seconds is what they cost. Null off Linux.
 */
export function childrenCpuMs(): number | null {
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): cutime, cstime are 16 and 17.
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Time one in-process call, in milliseconds. */
export async function timeCall(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The result of an interleaved comparison. */
export interface Comparison {
  /** Milliseconds of the measured side. */
  a: Stats;
  /** Milliseconds of the baseline. */
  b: Stats;
  /** Per-pair ratio a / b. */
  ratio: Stats;
  /** The same for CPU time, when both sides are processes timed with {@link timeProcess}. */
  cpu?: { a: Stats; b: Stats; ratio: Stats };
}

type Side = (i: number) => Promise<number | Sample> | number | Sample;

/**
 * Run the measured side and its baseline alternately (A B A B ...), after a warm-up of both, and
 * compare each A with the B beside it.
 *
 * @param runs - measured pairs
 * @param warmup - unmeasured pairs first
 * @param a - one run of the measured side, returning its milliseconds
 * @param b - one run of the baseline, returning its milliseconds
 * @param alternate - swap the order in every other pair (false when B repeats what A just did)
 */
export async function interleave(runs: number, warmup: number, a: Side, b: Side, alternate = true): Promise<Comparison> {
  const as: Sample[] = [];
  const bs: Sample[] = [];
  let cpu = true;
  const sample = (x: number | Sample): Sample => {
    if (typeof x !== 'number') return x;
    cpu = false;
    return { ms: x, cpuMs: Number.NaN };
  };
  for (let i = 0; i < warmup + runs; i += 1) {
    // Alternate which side goes first, so neither always runs on a cache the other warmed.
    const first = !alternate || i % 2 === 0;
    let ta: Sample;
    let tb: Sample;
    if (first) {
      ta = sample(await a(i));
      tb = sample(await b(i));
    } else {
      tb = sample(await b(i));
      ta = sample(await a(i));
    }
    if (i < warmup) continue;
    as.push(ta);
    bs.push(tb);
  }
  const of = (key: keyof Sample) => ({ a: stats(as.map((x) => x[key])), b: stats(bs.map((x) => x[key])), ratio: stats(as.map((x, k) => x[key] / bs[k]![key])) });
  return cpu ? { ...of('ms'), cpu: of('cpuMs') } : of('ms');
}

/** Repeat an operation and summarise its milliseconds (absolute figures, no baseline). */
export async function repeat(runs: number, warmup: number, fn: (i: number) => Promise<number> | number): Promise<Stats> {
  const out: number[] = [];
  for (let i = 0; i < warmup + runs; i += 1) {
    const t = await fn(i);
    if (i >= warmup) out.push(t);
  }
  return stats(out);
}
