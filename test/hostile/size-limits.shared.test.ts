import { describe, expect, it } from 'vitest';
import { CANVAS_LIMIT, checkCanvasSize, NODE_LIMIT } from '../../src/model/size-limits.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../src/store/write/node-writes.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';

// docs/canonical.md "Size limits": a node is at most 128 KiB as stored, a canvas at most 1 MiB,
// and an input longer than a canvas is refused before it is parsed; nothing is written.

describe('size limits', () => {
  it('pins the documented figures', () => {
    expect([NODE_LIMIT, CANVAS_LIMIT]).toEqual([131_072, 1_048_576]);
  });

  it('a 20 MB text node, a node just over the limit, and a canvas grown past its limit are refused, writing nothing', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'big', why: 'size limits', author: AUTHOR });
    let base = (await readCanvas(ws, { ledger: 'big' })).revision;
    const write = (payload: Record<string, string>) => insertNode(ws, { ledger: 'big', into: 'root', payload: payload as never, base, why: 'large', author: AUTHOR });
    // The node as stored is `<text>…</text>`: 13 bytes around the words.
    const fits = 'é'.repeat(Math.floor((NODE_LIMIT - 13) / 2));
    let before = repoState(ws);
    for (const [payload, what] of [
      [{ text: 'x'.repeat(20_000_000) }, 'input'],
      [{ xml: `<text>${'x'.repeat(20_000_000)}</text>` }, 'input'],
      [{ text: 'x'.repeat(NODE_LIMIT) }, 'node'],
      [{ text: `${fits}éé` }, 'node'],
      [{ xml: `<list>${'<item>an item of a long list</item>'.repeat(4000)}</list>` }, 'node'],
      [{ xml: `<table><row><cell>${'&amp;'.repeat(30_000)}</cell><cell>b</cell></row></table>` }, 'node'],
    ] as const) {
      expect(await write(payload), what).toMatchObject({ outcome: 'rejected', code: 'TOO_LARGE', data: { what } });
    }
    expect(repoState(ws)).toEqual(before);
    // A node at the limit is taken; a canvas grows to its limit and no further.
    let taken = 0;
    for (;;) {
      const o = await write({ text: fits });
      if (o.outcome !== 'applied') {
        expect(o).toMatchObject({ outcome: 'rejected', code: 'TOO_LARGE', data: { what: 'canvas' } });
        break;
      }
      base = o.revision;
      taken += 1;
    }
    expect(taken).toBe(Math.floor(CANVAS_LIMIT / NODE_LIMIT) - 1);
    const xml = (await readCanvas(ws, { ledger: 'big' })).xml;
    expect(Buffer.byteLength(xml)).toBeLessThanOrEqual(CANVAS_LIMIT);
    // A replace that would grow the canvas past its limit is refused too, and so is a
    // commenter's proposal: an edit the canvas could never take is not recorded.
    const node = /<text id="([a-z0-9]+)"/.exec(xml)![1]!;
    const small = await replaceNode(ws, { ledger: 'big', node, payload: { text: 'short now' }, base, why: 'shrink', author: AUTHOR });
    expect(small.outcome).toBe('applied');
    base = (small as { revision: string }).revision;
    const again = await write({ text: fits });
    expect(again.outcome).toBe('applied');
    base = (again as { revision: string }).revision;
    await grantRole(ws, { ledger: 'big', who: 'cam', role: 'commenter', why: 'a commenter', author: AUTHOR });
    before = repoState(ws);
    const grow = await replaceNode(ws, { ledger: 'big', node, payload: { text: fits }, base, why: 'grow', author: AUTHOR });
    expect(grow).toMatchObject({ outcome: 'rejected', code: 'TOO_LARGE', data: { what: 'canvas' } });
    const proposal = await insertNode(ws, { ledger: 'big', into: 'root', payload: { text: fits }, base, why: 'large', author: 'cam' });
    expect(proposal).toMatchObject({ outcome: 'rejected', code: 'TOO_LARGE', data: { what: 'canvas' } });
    expect(repoState(ws)).toEqual(before);
  });

  it('an edit that does not make a canvas over the limit larger is taken, so it can shrink back', () => {
    const over = `<canvas ledger="x" schema="2">\n  <text id="a1" v="1">${'x'.repeat(CANVAS_LIMIT)}</text>\n</canvas>\n`;
    const shorter = over.replace('xx', 'x');
    expect(() => checkCanvasSize(shorter, 'x', () => over)).not.toThrow();
    expect(() => checkCanvasSize(over, 'x', () => over)).not.toThrow();
    expect(() => checkCanvasSize(over, 'x', () => shorter)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    expect(() => checkCanvasSize(over, 'x')).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});
