import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { editTree, type TreeEdit } from '../../src/model/edit-tree.js';
import { indexNodes } from '../../src/model/index-nodes.js';
import type { Canvas, CanvasNode } from '../../src/model/types.js';
import { guardOneNode } from '../../src/store/write/guard-one-node.js';

const step = fc.record({ kind: fc.integer({ min: 0, max: 7 }), a: fc.nat(1000), b: fc.nat(1000) });

/** The ids of the nodes on the way from the root to a node (its sections and itself). */
function pathOf(canvas: Canvas, id: string): Set<string> {
  const index = indexNodes(canvas);
  const out = new Set<string>();
  for (let at = index.get(id); at; at = index.get(at.parent)) out.add(at.node.id);
  return out;
}

describe('editTree', () => {
  it('never changes the canvas it is given, and keeps every node it does not touch as the same object', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        let canvas: Canvas = { ledger: 'prop', schema: '2', children: [] };
        let minted = 0;
        for (const s of steps) {
          const nodes = [...indexNodes(canvas).values()];
          const pick = (n: number) => nodes[n % Math.max(nodes.length, 1)];
          const target = pick(s.a);
          const anchor = pick(s.b);
          let edit: TreeEdit;
          if (!target || s.kind <= 2) {
            const into = anchor?.node.type === 'section' && s.b % 2 === 0 ? anchor.node.id : 'root';
            const payload: CanvasNode = s.kind === 0 ? { type: 'section', id: '', v: 0, title: `s${s.a}`, children: [] } : { type: 'text', id: '', v: 0, text: `t${s.a}` };
            edit = { op: 'insert', id: `n${minted++}`, payload, anchor: s.b % 3 === 0 || !anchor ? { into } : { after: anchor.node.id } };
          } else if (s.kind <= 4) {
            const payload: CanvasNode = target.node.type === 'section' ? { type: 'section', id: '', v: 0, title: `s${s.a}!`, children: [] } : { type: 'text', id: '', v: 0, text: `t${s.a}!${s.b}` };
            edit = { op: 'replace', node: target.node.id, payload };
          } else if (s.kind <= 6) {
            edit = { op: 'move', node: target.node.id, anchor: s.b % 3 === 0 || !anchor ? { into: 'root' } : { after: anchor.node.id } };
          } else {
            edit = { op: 'remove', node: target.node.id };
          }
          const snapshot = structuredClone(canvas);
          let next: Canvas;
          try {
            next = editTree(canvas, edit).canvas;
          } catch (e) {
            // A refused edit (nesting, children, no change) leaves the input as it was too.
            expect(e).toBeInstanceOf(CanvasError);
            expect(canvas).toEqual(snapshot);
            continue;
          }
          expect(canvas).toEqual(snapshot);
          const named = 'id' in edit ? edit.id : edit.node;
          guardOneNode(canvas, next, { op: edit.op, node: named });
          // Untouched nodes are shared; the named node and the sections above it, before and after, are new.
          const touched = new Set([...pathOf(canvas, named), ...pathOf(next, named)]);
          const before = indexNodes(canvas);
          for (const [id, e] of indexNodes(next)) {
            if (!touched.has(id)) expect(e.node, id).toBe(before.get(id)!.node);
          }
          canvas = next;
        }
      }),
      { numRuns: 200 },
    );
  });
});
