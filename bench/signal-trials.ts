// `npm run signal-trials [-- --rounds N]`: the full signal run (docs/cli.md, "Signals"). The CLI's
// own entry writes every kind of write (edits, grant, revoke, propose, approve, reject, freeze),
// is stopped by a hook at each step of the write and gets SIGINT (to its process group, as
// Ctrl-C) and, in another trial, SIGTERM (to itself, as a runner's timeout); what it printed and
// its exit code must agree with the repository. Each round is both signals at each of the six
// steps of each of the ten kinds (120 trials); the default of 5 rounds gives 100 trials at each
// step, 60 at each step of each kind. Prints one line per trial and a summary; exits 1 when any
// trial lost or contradicted its outcome. The test suite runs one trial at each step of each
// kind (test/cli/signal-trials.test.ts).
import { bundleScript } from '../test/helpers/bundle-script.js';
import { runSignalTrials } from '../test/helpers/signal-trials.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args[at + 1]) : 5;
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: npm run signal-trials [-- --rounds N]   (N a whole number of rounds, at least 1)');
  process.exit(2);
}
const fixture = await bundleScript('test/cli/fixtures/signal-writer.ts', { splitting: true });
const started = performance.now();
try {
  const report = await runSignalTrials({ fixture: fixture.path, rounds, both: true, log: (line) => console.log(line) });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\n${report.trials} trials in ${seconds} s (${rounds} rounds)`);
  console.log(`by step: ${JSON.stringify(report.byStep)}`);
  console.log(`by signal: ${JSON.stringify(report.bySignal)}`);
  console.log(`applied and printed with exit 0: ${report.applied}; stopped with nothing applied, exit 130 or 143: ${report.stopped}`);
  console.log(report.failures.length === 0 ? 'no outcome lost or contradicted' : `${report.failures.length} failure(s):\n${report.failures.join('\n')}`);
  process.exitCode = report.failures.length === 0 ? 0 : 1;
} finally {
  fixture.remove();
}
