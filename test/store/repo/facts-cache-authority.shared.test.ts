// The facts cache is never an authority (docs/store.md, "Derived facts cache"): a cache edited to
// name another creator grants that who nothing and refuses the real creator nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { readAccess } from '../../../src/store/read/read-access.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, repoState, tempWorkspace } from '../../helpers/workspace.js';

async function canvasWithForgedCache() {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'c', why: 'cache', author: AUTHOR });
  const o = await insertNode(ws, { ledger: 'c', into: 'root', payload: { text: 'Draft.' }, base: (await readCanvas(ws, { ledger: 'c' })).revision, why: 'a draft', author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error('setup');
  // Before any grant there is no access file: the creator alone is owner.
  const path = join(ws.repo, '.git', 'canvas-cache', 'c.json');
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), creator: 'mallory' }));
  return { ws, node: o.node!, base: o.revision };
}

describe('a role decision the committed record contradicts', () => {
  it('is refused: the who a forged cache names as creator gets NO_ROLE, and nothing is written', async () => {
    const { ws, node, base } = await canvasWithForgedCache();
    const before = repoState(ws);
    await expect(replaceNode(ws, { ledger: 'c', node, payload: { text: 'Mine now.' }, base, why: 'take over', author: 'mallory' })).rejects.toMatchObject({
      code: 'NO_ROLE',
    });
    expect(repoState(ws)).toEqual(before);
    expect((await readAccess(ws, { ledger: 'c' })).creator).toBe('leo');
  });

  it('does not refuse the real creator, whose write puts the cache right', async () => {
    const { ws, node, base } = await canvasWithForgedCache();
    const o = await replaceNode(ws, { ledger: 'c', node, payload: { text: 'Still mine.' }, base, why: 'edit', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it('is reported by verify as a cache that disagrees with the history, and the cache is removed', async () => {
    const { ws } = await canvasWithForgedCache();
    expect((await verifyWorkspace(ws)).violations).toEqual([expect.objectContaining({ rule: 'cache', ledger: 'c' })]);
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
