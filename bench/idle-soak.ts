// `node scripts/build.js --cli-only && node --import tsx bench/idle-soak.ts [--writes N] [--idle MS]`:
// the soak of the long-lived git helpers at the real idle period (default 2000 ms, so 150 writes
// per writer take about six minutes). One `canvas mcp` server and one library loop write to one
// canvas with pauses from 0 to three idle periods, half at the boundary; it prints the report and
// exits 1 when any write was an error (anything but applied or a real conflict), when an applied
// write is missing from the history, or when verify finds a violation. The test runs the same
// soak with CANVAS_GIT_IDLE_MS=40 (test/store/git/idle-soak.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canvasLog } from '../src/store/read/canvas-log.js';
import { IDLE_MS } from '../src/store/git/git-handles.js';
import { verifyWorkspace } from '../src/store/verify/verify-workspace.js';
import { resolveWorkspace } from '../src/store/repo/workspace.js';
import { idleSoak } from './lib/idle-soak.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const writes = flag('--writes', 150);
const idleMs = flag('--idle', IDLE_MS);
const dir = mkdtempSync(join(tmpdir(), 'canvas-idle-soak-'));
const ws = resolveWorkspace({ workspace: dir });
const started = performance.now();
const report = await idleSoak({ ws, root: join(import.meta.dirname, '..'), idleMs, writes });
const log = await canvasLog(ws, { ledger: 'soak' });
const replaced = new Set(log.filter((e) => e.op === 'replace').map((e) => e.commit));
const missing = report.applied.filter((r) => !replaced.has(r));
const violations = (await verifyWorkspace(ws)).violations;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `idle ${idleMs} ms, ${2 * writes} writes in ${seconds} s: ${report.applied.length} applied, ${report.conflicts} conflicts, ` +
    `${report.errors.length} errors; ${report.nearBoundary} of ${report.pauses} pauses within a tenth of the idle period; ` +
    `${missing.length} applied writes missing from the history; ${violations.length} verify violations\n`,
);
for (const e of report.errors) process.stdout.write(`  ${e}\n`);
rmSync(dir, { recursive: true, force: true });
process.exitCode = report.errors.length > 0 || missing.length > 0 || violations.length > 0 ? 1 : 0;
