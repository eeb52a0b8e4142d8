// The benchmark runner's lanes (bench/lib/lanes.ts): what may run at once and what may not, with a
// lane of the test's own (fixtures/sleep-lane.mjs) that sleeps instead of measuring.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LaneAnswer, type RunJob, runLanes } from '../../bench/lib/lanes.js';
import { ROOT } from '../helpers/workspace.js';

const LANE = join(import.meta.dirname, 'fixtures', 'sleep-lane.mjs');

const job = (key: string, extra: Partial<RunJob> = {}): RunJob => ({ name: key, job: { kind: 'bench', key }, needs: [], alone: false, ...extra });

interface Ran {
  key: string;
  start: number;
  end: number;
  pid: number;
  lane: number;
  error?: string;
}

async function run(jobs: RunJob[], lanes = 2): Promise<Ran[]> {
  const ran: Ran[] = [];
  await runLanes(
    ROOT,
    true,
    lanes,
    jobs,
    (j: RunJob, a: LaneAnswer, lane: number) => {
      const [, start, end, pid] = (a.log[0] ?? `${j.name} 0 0 0`).split(' ');
      ran.push({ key: j.name, start: Number(start), end: Number(end), pid: Number(pid), lane, ...(a.error ? { error: a.error } : {}) });
    },
    LANE,
  );
  return ran;
}

const overlap = (a: Ran, b: Ran) => a.start < b.end && b.start < a.end;
const find = (ran: Ran[], key: string) => ran.find((r) => r.key === key)!;

describe('runLanes', () => {
  it('runs two jobs at once in two processes; a job waits for the workspace it reads, and two jobs reading one workspace never overlap', async () => {
    const ran = await run([job('gen:150', { makes: 'W' }), job('free:150'), job('readsW1:100', { needs: ['W'] }), job('readsW2:100', { needs: ['W'] })]);
    expect(ran.map((r) => r.key).sort()).toEqual(['free:150', 'gen:150', 'readsW1:100', 'readsW2:100']);
    // Both lanes are handed a job at once (whether they overlap depends on how fast each process starts).
    expect(find(ran, 'gen:150').pid).not.toBe(find(ran, 'free:150').pid);
    for (const k of ['readsW1:100', 'readsW2:100']) expect(find(ran, k).start).toBeGreaterThanOrEqual(find(ran, 'gen:150').end);
    expect(overlap(find(ran, 'readsW1:100'), find(ran, 'readsW2:100'))).toBe(false);
  });

  it('a job marked alone runs with every other lane idle', async () => {
    const ran = await run([job('a:120'), job('solo:120', { alone: true }), job('b:120'), job('c:120')]);
    const solo = find(ran, 'solo:120');
    for (const r of ran) if (r !== solo) expect(overlap(r, solo)).toBe(false);
  });

  it('a crashed job is reported with its error; a lane that dies fails its job and the other lane runs the rest', async () => {
    const ran = await run([job('crash'), job('exit'), job('x:50'), job('y:50'), job('z:50')]);
    expect(find(ran, 'crash').error).toContain('crashed on purpose');
    expect(find(ran, 'exit').error).toMatch(/^its lane exited/);
    for (const k of ['x:50', 'y:50', 'z:50']) expect(find(ran, k).error).toBeUndefined();
  });
});
