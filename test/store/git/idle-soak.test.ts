import { describe, expect, it } from 'vitest';
import { idleSoak, soakPauses } from '../../../bench/lib/idle-soak.js';
import { canvasLog } from '../../../src/store/read/canvas-log.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { ROOT, tempWorkspace } from '../../helpers/workspace.js';

// The long variant, at the default idle period: bench/idle-soak.ts (docs/performance.md).
const IDLE = 40;

describe('a long-lived server and a library loop writing across the idle period', () => {
  it('the pauses cross the idle boundary often, from both sides', () => {
    const pauses = soakPauses(160, IDLE, 7);
    expect(pauses.filter((p) => p < IDLE).length).toBeGreaterThan(40);
    expect(pauses.filter((p) => p > IDLE).length).toBeGreaterThan(40);
    expect(pauses.filter((p) => Math.abs(p - IDLE) <= IDLE * 0.1).length).toBeGreaterThan(60);
    expect(Math.max(...pauses)).toBeGreaterThan(2 * IDLE);
  });

  it('150 writes with CANVAS_GIT_IDLE_MS=40: every one applied, none an error, all in the history once', async () => {
    const ws = tempWorkspace('canvas-soak-');
    const report = await idleSoak({ ws, root: ROOT, idleMs: IDLE, writes: 75 });
    expect(report.errors).toEqual([]);
    expect(report.applied.length + report.conflicts).toBe(150);
    // Of the 150 pauses, 87 end within a tenth of the idle period of it and 23 beyond it.
    expect(report.nearBoundary).toBeGreaterThan(60);
    const log = await canvasLog(ws, { ledger: 'soak' });
    const replaced = log.filter((e) => e.op === 'replace').map((e) => e.commit);
    expect([...replaced].sort()).toEqual([...report.applied].sort());
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
