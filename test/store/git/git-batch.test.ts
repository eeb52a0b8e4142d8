import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GitBatch } from '../../../src/store/git/git-batch.js';
import { tempWorkspace } from '../../helpers/workspace.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function repo(): string {
  const ws = tempWorkspace();
  execFileSync('git', ['init', '-q', ws.repo]);
  return ws.repo;
}

function store(r: string, bytes: Buffer): string {
  return execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: r, input: bytes, encoding: 'utf8' }).trim();
}

describe('GitBatch: reading an object is linear in its size', () => {
  it('a 20 MB blob comes back byte for byte, copied a bounded number of times', async () => {
    const r = repo();
    const big = randomBytes(20 * 1024 * 1024);
    const sha = store(r, big);
    const batch = GitBatch.shared(r);
    // Warm: the process is running before the copies are counted.
    expect(await batch.read('HEAD')).toBeNull();
    const concat = vi.spyOn(Buffer, 'concat');
    const from = vi.spyOn(Buffer, 'from');
    const read = await batch.read(sha);
    const copied = [...concat.mock.results, ...from.mock.results].reduce((n, r) => n + (Buffer.isBuffer(r.value) ? r.value.length : 0), 0);
    expect(read?.type).toBe('blob');
    expect(read?.content.equals(big)).toBe(true);
    // Joining the chunks once copies the content once; joining on every chunk copies it hundreds
    // of times over (quadratic: about 3 GB for 20 MB in 64 KB chunks).
    expect(copied).toBeLessThanOrEqual(2 * big.length);
    batch.close();
  });

  it('many objects in one stream (empty, tiny, larger than a pipe chunk, missing) are answered in order', async () => {
    const r = repo();
    const blobs = [Buffer.alloc(0), Buffer.from('a'), randomBytes(70_000), Buffer.from('line\n'), randomBytes(200_000)];
    const shas = blobs.map((b) => store(r, b));
    const batch = GitBatch.shared(r);
    const reads = await Promise.all([...shas.map((s) => batch.read(s)), batch.read('0'.repeat(40)), batch.read(shas[1]!)]);
    expect(reads.slice(0, blobs.length).map((o, i) => o?.type === 'blob' && o.content.equals(blobs[i]!))).toEqual(blobs.map(() => true));
    expect(reads[blobs.length]).toBeNull();
    expect(reads[blobs.length + 1]?.content.toString()).toBe('a');
    batch.close();
  });

  it('a batch that was closed hands a read to a fresh one; one that died fails its reads with GIT_HELPER_FAILED', async () => {
    const r = repo();
    const sha = store(r, Buffer.from('x'));
    const batch = GitBatch.shared(r);
    batch.close();
    expect(batch.alive).toBe(false);
    expect((await batch.read(sha))?.content.toString()).toBe('x');
    const live = GitBatch.shared(r);
    expect(live).not.toBe(batch);
    const release = live.hold();
    process.kill(live.helper.pid!, 'SIGKILL');
    await expect(live.read(sha)).rejects.toMatchObject({ code: 'GIT_HELPER_FAILED' });
    release();
    expect((await GitBatch.shared(r).read(sha))?.content.toString()).toBe('x');
    GitBatch.shared(r).close();
  });
});
