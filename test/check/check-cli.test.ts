// canvas check through the CLI's entry in process; one refusal runs as a real process to pin
// its exit code and stream, and the probe of what a check loads runs one because it measures a
// process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, type StandInAnswer, startStandIn } from '../../bench/coherence-eval/stand-in.js';
import type { CheckReport } from '../../src/check/check-coherence.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { loadedBy } from '../helpers/loaded-modules.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

const KEY = 'sk-test-0123456789abcdef';

let standIn: StandIn;
let answer: () => StandInAnswer = () => ({});
let ws: Workspace;
const ids: string[] = [];

beforeAll(async () => {
  standIn = await startStandIn(() => answer());
  ws = tempWorkspace('canvas-check-cli-');
  expect((await runMain(ws, ['create', 'cli', '--why', 'a canvas to check'])).code).toBe(0);
  for (const text of ['Releases go out on Fridays.', 'Nothing is released on a Friday.']) {
    const base = baseOf((await runMain(ws, ['read', 'cli'])).stdout);
    const r = await runMain(ws, ['insert', 'cli', ids.length ? '--after' : '--into', ids.at(-1) ?? 'root', '--text', text, '--base', base, '--why', 'what we know', '--json']);
    expect(r.code, r.stderr).toBe(0);
    ids.push((JSON.parse(r.stdout) as { node: string }).node);
  }
  expect((await runMain(ws, ['grant', 'cli', 'coherence', 'editor', '--why', 'the checker asks here'])).code).toBe(0);
});
afterAll(async () => {
  await standIn.close();
});

function check(args: string[], env: Record<string, string> = {}, run = runMain) {
  return run(ws, ['check', 'cli', ...args], { CANVAS_MODEL_URL: standIn.url, CANVAS_MODEL: 'stand-in-1', CANVAS_MODEL_API_KEY: KEY, ...env });
}

const contradiction = (): StandInAnswer => ({
  content: { contradictions: [{ nodes: [ids[0], ids[1]], question: 'Do releases go out on Fridays or never on Fridays?', evidence: 'one says Fridays, one says never' }] },
});

describe('canvas check on the command line', () => {
  it('--dry-run prints what it would ask and writes nothing; then a run asks it once, and again writes nothing', async () => {
    answer = contradiction;
    const state = repoState(ws);
    const dry = await check(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would ask after ${ids[1]}: Do releases go out on Fridays or never on Fridays? (nodes ${ids[0]}, ${ids[1]})`);
    expect(dry.stdout).toContain('dry run: nothing written');
    expect(repoState(ws)).toEqual(state);
    // The key went to the server, as a bearer token.
    expect(standIn.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const run = await check(['--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.findings.map((f) => [f.status, f.after])).toEqual([['asked', ids[1]]]);
    const log = await runMain(ws, ['log', 'cli', '-n', '1']);
    expect(log.stdout).toContain(`insert ${report.findings[0]!.node} by coherence | step:check: coherence check: ${ids[0]}, ${ids[1]} contradict each other (model stand-in-1, revision ${report.revision})`);

    const again = await check([]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`already asked by ${report.findings[0]!.node}`);
    expect(again.stdout).toContain(`Canvas-Base: ${report.head}`);
  });

  it('exit 6 when the model cannot be asked, 7 when its reply is refused, 2 without a model; the key is never printed', async () => {
    const state = repoState(ws);
    answer = () => ({ status: 401 });
    const denied = await check([], {}, runCli);
    expect(denied.code).toBe(6);
    expect(denied.stderr).toMatch(/^canvas: CHECK_MODEL_FAILED: /);
    const json = await check(['--json']);
    expect(json.code).toBe(6);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('CHECK_MODEL_FAILED');
    for (const r of [denied, json]) expect(r.stdout + r.stderr).not.toContain(KEY);

    answer = () => ({ content: { contradictions: [{ nodes: [ids[0], 'nope1'], question: 'Which?', evidence: '' }] } });
    const unknown = await check([]);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr).toMatch(/^canvas: CHECK_UNKNOWN_NODES: /);

    const none = await check([], { CANVAS_MODEL_URL: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^canvas: CHECK_CONFIG: /);
    expect(repoState(ws)).toEqual(state);
  });

  it('canvas read does not load the openai SDK; canvas check does', async () => {
    const read = await loadedBy(ws, ['read', 'cli']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.packages.filter((p) => p.includes('/node_modules/openai/'))).toEqual([]);
    answer = () => ({ content: { contradictions: [] } });
    const checked = await loadedBy(ws, ['check', 'cli', '--dry-run'], { CANVAS_MODEL_URL: standIn.url, CANVAS_MODEL: 'stand-in-1' });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.packages.some((p) => p.includes('/node_modules/openai/'))).toBe(true);
  });
});
