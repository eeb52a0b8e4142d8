// The CPU of the long-lived git processes a measured CLI starts (`git cat-file --batch`, `git
// update-ref --stdin`; docs/performance.md, "Method"): such a helper never delays the CLI's exit,
// so it ends after the CLI, is nobody's waited-for child, and its CPU is in no figure `time`
// gives for the CLI. A `git` put first on PATH runs those under bash's `time`, which appends
// each one's user and sys to a log once it has ended; every other git runs as it is, since the CLI
// waits for it and `time` already counts it.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpawnSyncOptions } from 'node:child_process';
import { type Timed, timeProcess } from './measure.js';

/** Where a measured process's git processes are logged, and the environment that logs them. */
export interface GitCpuLog {
  env: NodeJS.ProcessEnv;
  /** Wait for every long-lived git started since the last read to end; their CPU in ms, and how many. */
  read: () => { cpuMs: number; processes: number };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * An environment whose long-lived git processes are each timed (null without bash).
 *
 * @param dir - a scratch directory for the wrapper and its logs
 * @param env - the environment to add it to
 */
export function gitCpuLog(dir: string, env: NodeJS.ProcessEnv): GitCpuLog | null {
  if (!existsSync('/bin/bash')) return null;
  const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(dir, 'timed-git');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'git-cpu.log');
  const starts = join(dir, 'git-starts.log');
  const script = join(bin, 'git');
  const timer = join(dir, 'time-git.bash');
  // bash's `time` reports in milliseconds (GNU time's %U and %S in hundredths, too coarse for a
  // helper that answers one read); git's own stderr goes where the caller sent it.
  writeFileSync(timer, `TIMEFORMAT='%3U %3S'\nexec 4>&2\n{ time "$@" 2>&4 4>&- ; } 2>> "${log}"\n`);
  writeFileSync(script, `#!/bin/sh\ncase " $* " in\n  *" cat-file --batch"*|*" update-ref "*"--stdin"*)\n    echo 1 >> "${starts}"\n    exec /bin/bash "${timer}" "${git}" "$@" ;;\nesac\nexec "${git}" "$@"\n`);
  chmodSync(script, 0o755);
  const lines = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : []);
  return {
    env: { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH ?? ''}` },
    read: () => {
      // A git that outlived the CLI is told to end by its closed input; give it a few seconds.
      const timedLines = () => lines(log).filter((l) => /^\d+\.\d+ \d+\.\d+$/.test(l));
      for (let i = 0; i < 500 && timedLines().length < lines(starts).length; i += 1) sleep(10);
      const timed = timedLines();
      if (timed.length < lines(starts).length) throw new Error(`${lines(starts).length - timed.length} git process(es) did not end after the build`);
      rmSync(log, { force: true });
      rmSync(starts, { force: true });
      const cpuMs = timed.reduce((t, l) => t + l.split(' ').reduce((a, x) => a + Number(x) * 1000, 0), 0);
      return { cpuMs, processes: timed.length };
    },
  };
}

/**
 * Time one CLI process ({@link timeProcess}) with the CPU of the long-lived gits it left running
 * added to its CPU, when there is a log to count them (else as `timeProcess` alone).
 *
 * @param log - from {@link gitCpuLog}, or null
 */
export function timeCli(cmd: string, args: readonly string[], options: SpawnSyncOptions & { env: NodeJS.ProcessEnv }, log: GitCpuLog | null): Timed {
  if (log === null) return timeProcess(cmd, args, options);
  const r = timeProcess(cmd, args, { ...options, env: { ...options.env, PATH: log.env.PATH } });
  return { ...r, cpuMs: r.cpuMs + log.read().cpuMs };
}
