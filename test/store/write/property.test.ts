import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffCanvases } from '../../../src/model/diff-canvases.js';
import { indexNodes } from '../../../src/model/index-nodes.js';
import { parseCanvas } from '../../../src/model/parse-canvas.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { canvasLog } from '../../../src/store/read/canvas-log.js';
import { nodeHistory } from '../../../src/store/read/node-history.js';
import { insertNode, moveNode, removeNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { RepoReader } from '../../../src/store/repo/repo-reader.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

type Step = { kind: number; a: number; b: number; text: string };

const step = fc.record({
  kind: fc.integer({ min: 0, max: 9 }),
  a: fc.nat(1000),
  b: fc.nat(1000),
  text: fc.string({ minLength: 1, maxLength: 8 }).map((s) => `t ${s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')}`),
});

describe('random sequences of valid edits', () => {
  it('keep verify green, change exactly the named node per commit, and history equals the commits naming each node', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps: Step[]) => {
        const ws = tempWorkspace();
        const ledger = 'prop';
        expect((await createCanvas(ws, { ledger, why: 'start', author: AUTHOR })).outcome).toBe('applied');
        for (const s of steps) {
          const r = await readCanvas(ws, { ledger });
          const nodes = [...indexNodes(r.canvas).values()];
          const pick = (n: number) => nodes[n % Math.max(nodes.length, 1)];
          const common = { ledger, base: r.revision, why: `step ${s.kind}`, author: AUTHOR };
          let o: Outcome;
          const target = pick(s.a);
          const anchor = pick(s.b);
          if (nodes.length === 0 || s.kind <= 2) {
            const into = anchor && anchor.node.type === 'section' && s.b % 2 === 0 ? anchor.node.id : 'root';
            const payload = s.kind === 0 && into === 'root' ? { section: s.text } : s.kind === 1 ? { question: s.text } : { text: s.text };
            o = await insertNode(ws, { ...common, into, payload });
          } else if (s.kind <= 5) {
            o = await replaceNode(ws, { ...common, node: target!.node.id, payload: target!.node.type === 'section' ? { section: `${s.text}!` } : { text: `${s.text} ${s.a}` } });
          } else if (s.kind <= 7) {
            o = await moveNode(ws, { ...common, node: target!.node.id, ...(s.b % 3 === 0 ? { into: 'root' } : { after: anchor!.node.id }) });
          } else if (s.kind === 8) {
            o = await removeNode(ws, { ...common, node: target!.node.id });
          } else {
            o = await freezeCanvas(ws, { ledger, why: 'a freeze', author: AUTHOR });
          }
          // A valid edit applies; an edit the rules refuse is refused with a rejection, never half-applied.
          expect(['applied', 'rejected']).toContain(o.outcome);
          if (o.outcome === 'rejected') expect(['NO_CHANGE', 'HAS_CHILDREN', 'NESTING', 'MOVE_INTO_SELF']).toContain(o.code);
        }
        const report = await verifyWorkspace(ws);
        expect(report.violations).toEqual([]);
        // Every commit changes exactly the node it names.
        const log = (await canvasLog(ws, { ledger })).reverse();
        const reader = new RepoReader(ws);
        let previous = null;
        const naming = new Map<string, string[]>();
        for (const e of log) {
          const doc = parseCanvas((await reader.file(e.commit, `${ledger}.xml`))!.toString('utf8'));
          const changed = diffCanvases(previous, doc).map((d) => d.node);
          expect(changed).toEqual(e.node ? [e.node] : []);
          if (e.node) naming.set(e.node, [...(naming.get(e.node) ?? []), e.commit]);
          previous = doc;
        }
        reader.close();
        for (const [node, commits] of naming) {
          expect((await nodeHistory(ws, { ledger, node })).map((h) => h.commit)).toEqual(commits);
        }
      }),
      { numRuns: 25 },
    );
  });
});
