import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { canvasLog } from '../../../src/store/read/canvas-log.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { type BundledScript, bundleScript } from '../../helpers/bundle-script.js';
import { AUTHOR, ROOT, tempWorkspace } from '../../helpers/workspace.js';

// The writer fixture, bundled once: each of the eight processes runs plain JavaScript instead of
// compiling the store's TypeScript through tsx (docs/testing.md, "Scripts as JavaScript").
let script: BundledScript;
beforeAll(async () => {
  script = await bundleScript('test/store/fixtures/writer.ts');
});
afterAll(() => script?.remove());

/** Run one writer process; resolve with its outcome lines. */
function writer(ws: Workspace, ledger: string, name: string, count: number): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script.path, ws.root, ledger, name, String(count)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`writer ${name} exited ${code}: ${err}`));
      else
        resolve(
          out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        );
    });
  });
}

/**
 * Edits per writer: enough for the four writers of the shared canvas to race for its nodes (each
 * run sees conflicts) and for every writer to meet the others' locks many times. The long run
 * (8 x 100, with the rate against one writer) is the writers benchmark (bench/benchmarks/writers.ts).
 */
const EDITS = 25;

describe('many writer processes on one workspace', () => {
  it('8 processes x 25 edits, half on one canvas: every applied edit is in the history once, every refusal a conflict, nothing lost', async () => {
    const ws = tempWorkspace();
    const ledgers = ['shared', 'own-4', 'own-5', 'own-6', 'own-7'];
    for (const ledger of ledgers) {
      expect((await createCanvas(ws, { ledger, why: 'for the writers', author: AUTHOR })).outcome).toBe('applied');
    }
    for (let w = 0; w < 8; w += 1) {
      const ledger = w < 4 ? 'shared' : `own-${w}`;
      await grantRole(ws, { ledger, who: `w${w}`, role: 'editor', why: 'a writer of the test', author: AUTHOR });
    }
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => writer(ws, w < 4 ? 'shared' : `own-${w}`, `w${w}`, EDITS)));
    const applied = new Map<string, string[]>();
    let conflicts = 0;
    results.forEach((lines, w) => {
      expect(lines).toHaveLength(EDITS);
      const ledger = w < 4 ? 'shared' : `own-${w}`;
      for (const l of lines) {
        expect(l.error, String(l.error)).toBeUndefined();
        expect(['applied', 'conflict']).toContain(l.outcome);
        if (l.outcome === 'conflict') conflicts += 1;
        else applied.set(ledger, [...(applied.get(ledger) ?? []), l.revision as string]);
      }
    });
    for (const ledger of ledgers) {
      const log = await canvasLog(ws, { ledger });
      const edits = log.filter((e) => e.op === 'insert' || e.op === 'replace').map((e) => e.commit);
      const mine = applied.get(ledger) ?? [];
      expect(new Set(edits).size).toBe(edits.length);
      expect([...edits].sort()).toEqual([...mine].sort());
    }
    // The writers on the shared canvas raced for the same nodes: some were refused as conflicts.
    expect(conflicts).toBeGreaterThan(0);
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
  });
});
