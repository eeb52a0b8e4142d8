// `node scripts/build.js --cli-only && node --import tsx bench/remote-kill-trials.ts [--trials 60] [--seed 1] [--root DIR]`:
// the full kill run around the push (docs/remote.md, "Crashes"). A writer with a shared remote
// (git daemon on 127.0.0.1) is killed with SIGKILL, it and its git processes, at random over a
// write's life, while the remote receives its pack, while the remote moves its refs, and while it
// moves its own refs after the push; after each kill one sync must bring this machine and the
// remote to one state, the edit there once or not at all, verify green, the next write applied.
// `--root` runs the CLI of another checkout (a copy of the build, so a rebuild meanwhile cannot
// cut the run short). Prints one line per trial and a summary; exits 1 when any trial did not
// recover. The test suite runs 4 (test/store/remote/remote-kill-trials.test.ts).
import { join } from 'node:path';
import { runRemoteKillTrials } from './lib/remote-kill-trials.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const trials = Number(option('--trials') ?? 60);
const seed = Number(option('--seed') ?? 1);
const started = performance.now();
const report = await runRemoteKillTrials({ trials, seed, root: option('--root') ?? join(import.meta.dirname, '..'), log: (line) => console.log(line) });
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`\n${report.trials} trials in ${seconds} s (seed ${seed})`);
console.log(`by timing: ${JSON.stringify(report.byTiming)}`);
console.log(`the edit was on the remote after ${report.pushed}; of those, this machine had not moved and the sync followed in ${report.followedBySync}`);
console.log(report.failures.length === 0 ? 'every trial recovered with one sync' : `${report.failures.length} failure(s):\n${report.failures.join('\n')}`);
process.exitCode = report.failures.length === 0 ? 0 : 1;
