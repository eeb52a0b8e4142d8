// Timing: whole processes and in-process calls, run interleaved with their baseline so that a
// noisy machine slows both sides of each pair alike, summarised as the median and spread of the
// per-pair ratio.
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';

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

/** What one timed process did. */
export interface Timed {
  ms: number;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run a process to its end and time it (wall clock, from spawn to exit).
 *
 * @throws Error when it exits non-zero and `allowFail` is not set
 */
export function timeProcess(cmd: string, args: readonly string[], options: SpawnSyncOptions & { allowFail?: boolean } = {}): Timed {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...options });
  const ms = performance.now() - t0;
  const out: Timed = { ms, code: r.status ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  if (r.error) throw r.error;
  if (out.code !== 0 && !options.allowFail) {
    throw new Error(`${cmd} ${args.join(' ').slice(0, 200)} exited ${out.code}: ${out.stderr.slice(0, 2000)}`);
  }
  return out;
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
}

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
export async function interleave(
  runs: number,
  warmup: number,
  a: (i: number) => Promise<number> | number,
  b: (i: number) => Promise<number> | number,
  alternate = true,
): Promise<Comparison> {
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < warmup + runs; i += 1) {
    // Alternate which side goes first, so neither always runs on a cache the other warmed.
    const first = !alternate || i % 2 === 0;
    let ta: number;
    let tb: number;
    if (first) {
      ta = await a(i);
      tb = await b(i);
    } else {
      tb = await b(i);
      ta = await a(i);
    }
    if (i < warmup) continue;
    as.push(ta);
    bs.push(tb);
    ratios.push(ta / tb);
  }
  return { a: stats(as), b: stats(bs), ratio: stats(ratios) };
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
