import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { WRITE_STEPS } from '../../src/store/repo/write-steps.js';
import { type BundledScript, bundleScript } from '../helpers/bundle-script.js';
import { commandFor, KINDS, trialWorkspace } from '../helpers/kill-trials.js';
import { printedRevision, runSignalTrials, runStopped } from '../helpers/signal-trials.js';

/**
 * SIGINT and SIGTERM at every step of every kind of write (docs/cli.md, "Signals"): the writer
 * is stopped at the step by a hook, gets the signal there, and what it printed and its exit code
 * must agree with the repository. The full run, both signals at every step, many rounds, is
 * `npm run signal-trials` (bench/signal-trials.ts).
 */
let fixture: BundledScript;

beforeAll(async () => {
  fixture = await bundleScript('test/cli/fixtures/built-signal-writer.ts', { builtCli: true });
});

afterAll(() => fixture.remove());

describe('a signal during a write', () => {
  it(`never loses or contradicts the outcome: one trial at each of the ${WRITE_STEPS.length} steps of each of the ${KINDS.length} kinds of write`, async () => {
    const report = await runSignalTrials({ fixture: fixture.path, rounds: 1, both: false });
    expect(report.failures).toEqual([]);
    expect(report.trials).toBe(KINDS.length * WRITE_STEPS.length);
    expect(report.trials).toBeGreaterThanOrEqual(60);
    expect(Object.keys(report.byStep).sort()).toEqual([...WRITE_STEPS].sort());
    expect(report.bySignal.SIGINT).toBeGreaterThan(0);
    expect(report.bySignal.SIGTERM).toBeGreaterThan(0);
    expect(report.applied + report.stopped).toBe(report.trials);
    // Sixty processes, each a write; on a loaded machine they take minutes.
  }, 600_000);

  it('a second Ctrl-C once main moved exits at once with 0, saying the write was applied', async () => {
    const ws = await trialWorkspace();
    const c = await commandFor(ws, 'replace', 1);
    const run = await runStopped(fixture.path, ws, c.args, c.author, 'moved', 'SIGINT', 2);
    const main = execFileSync('git', ['rev-parse', 'main'], { cwd: ws.repo, encoding: 'utf8' }).trim();
    expect(run.signal).toBeNull();
    // The Ctrl-C reached the command alone: its git processes run in groups of their own.
    expect(run.grouped).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`the write was applied as ${main}`);
    // The outcome itself was cut short, and the second signal said so instead.
    expect(printedRevision(run.stdout, false)).toBeNull();
    expect((await readCanvas(ws, { ledger: 'c' })).revision).toBe(main);
  });
});
