import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { readCanvasText } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

/**
 * A writer killed inside git's ref transaction (docs/store.md, "Truncation and the reflogs"):
 * git appends a ref's reflog entry, then renames the ref's lock file into place. Killed between
 * the two, the reflog says the ref moved while the ref did not, and the next command moves it.
 */
describe('a ref update cut short between git logging it and renaming its lock into place', () => {
  it('the canvas ref moved again by the next command is not a gap in its reflog', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'c', why: 'a cut-short ref update', author: AUTHOR });
    const base = (await readCanvasText(ws, { ledger: 'c' })).revision;
    const o = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text: 'One.' }, base, why: 'one', author: AUTHOR });
    if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
    // What a kill leaves there: main moved, the canvas ref's move logged, its lock never renamed.
    const ref = join(ws.repo, '.git', 'refs', 'canvas', 'c');
    expect(readFileSync(ref, 'utf8').trim()).toBe(o.revision);
    writeFileSync(`${ref}.lock`, `${o.revision}\n`);
    writeFileSync(ref, `${base}\n`);
    const next = await replaceNode(ws, { ledger: 'c', node: o.node!, payload: { text: 'Two.' }, base: o.revision, why: 'the next write', author: AUTHOR });
    expect(next.outcome).toBe('applied');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
