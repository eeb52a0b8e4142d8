import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FlatTree, objectSha } from '../../bench/lib/git-objects.js';
import { PackWriter, spliceDelta } from '../../bench/lib/git-pack.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Apply a delta in git's format (the reading side, written from the format's description). */
function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let i = 0;
  const size = () => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = delta[i++]!;
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return n;
    }
  };
  expect(size()).toBe(base.length);
  const want = size();
  const out: Buffer[] = [];
  while (i < delta.length) {
    const op = delta[i++]!;
    if (op & 0x80) {
      let offset = 0;
      let n = 0;
      for (let k = 0; k < 4; k += 1) if (op & (1 << k)) offset += delta[i++]! * 2 ** (8 * k);
      for (let k = 0; k < 3; k += 1) if (op & (0x10 << k)) n += delta[i++]! * 2 ** (8 * k);
      out.push(base.subarray(offset, offset + (n === 0 ? 0x10000 : n)));
    } else {
      out.push(delta.subarray(i, i + op));
      i += op;
    }
  }
  const result = Buffer.concat(out);
  expect(result.length).toBe(want);
  return result;
}

describe('the generator pack (bench/lib/git-pack.ts)', () => {
  it('splices bytes anywhere in a base longer than one copy instruction', () => {
    const base = Buffer.alloc(200_000);
    for (let k = 0; k < base.length; k += 1) base[k] = (k * 7) % 251;
    for (const [at, removed, inserted] of [
      [0, 0, Buffer.from('head')],
      [65_536, 20, Buffer.alloc(20, 9)],
      [131_072 + 3, 0, Buffer.alloc(300, 1)],
      [200_000 - 20, 20, Buffer.alloc(20, 2)],
    ] as const) {
      const want = Buffer.concat([base.subarray(0, at), inserted, base.subarray(at + removed)]);
      expect(applyDelta(base, spliceDelta(base.length, at, removed, inserted)).equals(want)).toBe(true);
    }
  });

  it('gives git every tree, as deltas and past the longest chain, under the sha computed in process', async () => {
    const dir = tempDir('canvas-pack-');
    dirs.push(dir);
    execFileSync('git', ['init', '-q', dir]);
    const tree = new FlatTree();
    const expected: Array<{ sha: string; bytes: Buffer }> = [];
    const path = (k: number) => `c${String(k).padStart(5, '0')}.xml`;
    // A tree past 64 KiB, written whole; then new paths among its entries and 60 changes of known
    // ones, each a delta (a chain of 50 deltas ends with a whole tree).
    for (let k = 0; k < 5_000; k += 2) tree.set(path(k), objectSha('blob', Buffer.from(`first ${k}`)));
    const steps: Array<[string, string]> = [[path(0), objectSha('blob', Buffer.from('zero'))]];
    for (let k = 1; k < 20; k += 1) steps.push([path(k * 101), objectSha('blob', Buffer.from(`new ${k}`))]);
    for (let k = 0; k < 60; k += 1) steps.push([path((k * 74) % 5_000), objectSha('blob', Buffer.from(`changed ${k}`))]);
    const pack = new PackWriter(dir, steps.length);
    for (const [i, [path, sha]] of steps.entries()) {
      const change = tree.set(path, sha);
      expected.push({ sha: tree.sha(), bytes: Buffer.from(tree.bytes()) });
      pack.tree(tree.bytes(), i === 0 ? null : change);
      await pack.flush();
    }
    await pack.end();
    expect(expected.at(-1)!.bytes.length).toBeGreaterThan(65_536);
    const check = execFileSync('git', ['-C', dir, 'cat-file', '--batch-check'], { input: expected.map((e) => e.sha).join('\n') }).toString();
    expect(check.split('\n').filter((l) => l.endsWith(' missing'))).toEqual([]);
    for (const e of [expected[0]!, expected[10]!, expected.at(-11)!, expected.at(-1)!]) {
      expect(execFileSync('git', ['-C', dir, 'cat-file', 'tree', e.sha]).equals(e.bytes)).toBe(true);
    }
  });
});
