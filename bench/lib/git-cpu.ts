// The CPU of every git process a measured CLI starts, the long-lived `git cat-file --batch`
// included (docs/performance.md, "What grows faster than the canvases"): that helper never
// delays the CLI's exit, so it ends after the CLI, is nobody's waited-for child, and its CPU is in
// no figure `time` gives for the CLI. A `git` put first on PATH runs the real one under GNU time,
// which appends each git's user and sys to a log once that git has ended.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TIME = '/usr/bin/time';

/** Where a measured process's git processes are logged, and the environment that logs them. */
export interface GitCpuLog {
  env: NodeJS.ProcessEnv;
  /** Wait for every git started since the last read to end; their CPU in ms, and how many. */
  read: () => { cpuMs: number; processes: number };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * An environment whose git processes are each timed (null without GNU time).
 *
 * @param dir - a scratch directory for the wrapper and its logs
 * @param env - the environment to add it to
 */
export function gitCpuLog(dir: string, env: NodeJS.ProcessEnv): GitCpuLog | null {
  if (!existsSync(TIME)) return null;
  const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(dir, 'timed-git');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'git-cpu.log');
  const starts = join(dir, 'git-starts.log');
  const script = join(bin, 'git');
  writeFileSync(script, `#!/bin/sh\necho 1 >> "${starts}"\nexec ${TIME} -a -o "${log}" -f "%U %S" "${git}" "$@"\n`);
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
