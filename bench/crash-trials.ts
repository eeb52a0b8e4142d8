// `npm run crash-trials [-- --trials N] [-- --seed S]`: the full kill run (docs/store.md,
// "Concurrency and crashes"). Writers of every kind of write (edits, grant, revoke, propose,
// approve, reject, freeze) are killed with SIGKILL, they and their git processes, at a random
// instant or the moment their ref update starts; after each kill verify must be green, the next
// write applied and every working file equal to main, with no manual step. Prints one line per
// trial and a summary; exits 1 when any trial did not recover. The test suite runs a sample of
// 20 (test/store/write/kill-trials.test.ts).
import { join } from 'node:path';
import { runKillTrials } from '../test/helpers/kill-trials.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const trials = option('--trials', 200);
const seed = option('--seed', 1);
const started = performance.now();
const report = await runKillTrials({ trials, seed, root: join(import.meta.dirname, '..'), log: (line) => console.log(line) });
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`\n${report.trials} trials in ${seconds} s (seed ${seed})`);
console.log(`by kind: ${JSON.stringify(report.byKind)}`);
console.log(`by timing: ${JSON.stringify(report.byTiming)}`);
console.log(`main moved in ${report.mainMoved}, the lock was left in ${report.lockLeft}, verify repaired something after ${report.repaired}, a private file was left in ${report.privateLeft}`);
console.log(report.failures.length === 0 ? 'every trial recovered with no manual step' : `${report.failures.length} failure(s):\n${report.failures.join('\n')}`);
process.exitCode = report.failures.length === 0 ? 0 : 1;
