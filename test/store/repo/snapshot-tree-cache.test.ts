import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import { readSnapshots } from '../../../src/store/read/read-snapshots.js';
import { RepoReader } from '../../../src/store/repo/repo-reader.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

// Count the parses of canvas documents: the point of the tree cache on the read side is that a
// snapshot of bytes the store wrote needs none (docs/store.md, "Reads").
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/model/parse-canvas.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/model/parse-canvas.js')>();
  return {
    ...original,
    parseCanvas: (...args: Parameters<typeof original.parseCanvas>) => {
      parses.count += 1;
      return original.parseCanvas(...args);
    },
  };
});

describe('a snapshot (what every projection renders) takes its tree from the tree cache only when that tree is the bytes', () => {
  it('parses nothing for bytes the store wrote; parses, and shows the bytes, past a cache of another tree or none', async () => {
    const ws = tempWorkspace();
    const c = await createCanvas(ws, { ledger: 'snap', why: 'a canvas to render', author: AUTHOR });
    if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
    const t = await insertNode(ws, { ledger: 'snap', base: c.revision, into: 'root', payload: { text: 'the committed text' }, why: 'something to render', author: AUTHOR });
    if (t.outcome !== 'applied') throw new Error(JSON.stringify(t));

    // The site build's read of many canvases, and the read of one.
    const many = async () => {
      const reader = new RepoReader(ws);
      try {
        const [s] = await readSnapshots(reader, [{ ledger: 'snap', revision: t.revision }]);
        if (!s || !('canvas' in s)) throw new Error(String(s));
        return s.canvas;
      } finally {
        reader.close();
      }
    };
    parses.count = 0;
    const cached = await readSnapshot(ws, { ledger: 'snap' });
    expect(JSON.stringify(cached.canvas)).toContain('the committed text');
    expect(await many()).toEqual(cached.canvas);
    expect(parses.count).toBe(0);

    const path = join(ws.repo, '.git', 'canvas-cache', 'trees', 'snap.json');
    const kept = readFileSync(path, 'utf8');
    expect(kept).toContain('"the committed text"');
    // The record names these very bytes, but its tree says something else: the bytes decide.
    writeFileSync(path, kept.replace('"the committed text"', '"a forged text"'));
    parses.count = 0;
    const forged = await readSnapshot(ws, { ledger: 'snap' });
    expect(forged.canvas).toEqual(cached.canvas);
    expect(await many()).toEqual(cached.canvas);
    expect(parses.count).toBe(2);

    // The very tree, recorded as passing another version's checks: parsed and checked again.
    writeFileSync(path, kept.replace(/^(\{"blob":"[0-9a-f]+","checks":)\d+,/, '$11,'));
    expect(readFileSync(path, 'utf8')).not.toBe(kept);
    parses.count = 0;
    expect((await readSnapshot(ws, { ledger: 'snap' })).canvas).toEqual(cached.canvas);
    expect(await many()).toEqual(cached.canvas);
    expect(parses.count).toBe(2);

    rmSync(path);
    parses.count = 0;
    const none = await readSnapshot(ws, { ledger: 'snap' });
    expect(none.canvas).toEqual(cached.canvas);
    expect(await many()).toEqual(cached.canvas);
    expect(parses.count).toBe(2);
  });
});
