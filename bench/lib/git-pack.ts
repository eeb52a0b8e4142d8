// A pack file written by the generator itself and handed to `git index-pack --stdin`: the root
// tree of each commit goes in as a delta against the one before (which the generator knows
// exactly: one entry's sha changed, or one entry was added), so git never rebuilds, searches or
// compresses a tree of one entry per canvas for every commit. git fast-import did, at about 7 ms
// of CPU a commit with 10,000 canvases (docs/performance.md, "Inputs").
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { gitConfigArgs, gitEnvironment } from '../../src/store/git/git.js';

const TYPES = { commit: 1, tree: 2, blob: 3, ofsDelta: 6 } as const;
/** The longest chain of deltas, as git fast-import and git repack make by default. */
const MAX_DEPTH = 50;
/** The largest copy one delta instruction names (git's own writer uses this size). */
const COPY_MAX = 0x10000;

/** A size as the delta header writes it: seven bits a byte, lowest first. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A pack entry's header: its type and its (inflated) size. */
function entryHeader(type: number, size: number): Buffer {
  const out: number[] = [];
  let c = (type << 4) | (size & 15);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out.push(c | 0x80);
    c = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  out.push(c);
  return Buffer.from(out);
}

/** An OFS_DELTA's distance back to its base, in git's encoding. */
function ofsBytes(distance: number): Buffer {
  const out = [distance & 0x7f];
  let v = Math.floor(distance / 128);
  while (v > 0) {
    v -= 1;
    out.unshift(0x80 | (v & 0x7f));
    v = Math.floor(v / 128);
  }
  return Buffer.from(out);
}

/** Delta instructions copying `size` bytes of the base from `offset`. */
function copy(out: number[], offset: number, size: number): void {
  for (let at = offset, left = size; left > 0; ) {
    const n = Math.min(left, COPY_MAX);
    let op = 0x80;
    const args: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const b = (at >>> (8 * i)) & 0xff;
      if (b !== 0) {
        op |= 1 << i;
        args.push(b);
      }
    }
    // A size of 0x10000 is written as no size bytes at all.
    if (n !== COPY_MAX) {
      for (let i = 0; i < 3; i += 1) {
        const b = (n >>> (8 * i)) & 0xff;
        if (b !== 0) {
          op |= 0x10 << i;
          args.push(b);
        }
      }
    }
    out.push(op, ...args);
    at += n;
    left -= n;
  }
}

/**
 * The delta that turns `base` into the same bytes with `removed` bytes at `at` replaced by
 * `inserted` (git's delta format: both sizes, then copy and insert instructions).
 */
export function spliceDelta(baseSize: number, at: number, removed: number, inserted: Buffer): Buffer {
  const out = [...varint(baseSize), ...varint(baseSize - removed + inserted.length)];
  copy(out, 0, at);
  for (let i = 0; i < inserted.length; i += 127) {
    const part = inserted.subarray(i, i + 127);
    out.push(part.length, ...part);
  }
  copy(out, at + removed, baseSize - at - removed);
  return Buffer.from(out);
}

/** A change of the root tree since the previous one, as {@link FlatTree.set} reports it. */
export interface TreeChange {
  at: number;
  removed: number;
  inserted: Buffer;
}

/**
 * Stream a pack of a known number of objects into `git index-pack --stdin`, which stores it with
 * its index in the repository. Trees are written as a delta against the previous tree while the
 * chain is shorter than {@link MAX_DEPTH}; blobs and commits whole.
 */
export class PackWriter {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly closed: Promise<{ code: number; stdout: string; stderr: string }>;
  private readonly hash: Hash = createHash('sha1');
  private offset = 0;
  private written = 0;
  private chunks: Buffer[] = [];
  private pending = 0;
  private lastTree: { offset: number; depth: number; size: number } | null = null;
  private readonly count: number;

  constructor(repo: string, count: number) {
    this.count = count;
    this.child = spawn('git', [...gitConfigArgs(repo), 'index-pack', '--stdin'], { cwd: repo, env: gitEnvironment() });
    let stdout = '';
    let stderr = '';
    this.child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    this.closed = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
    const head = Buffer.alloc(12);
    head.write('PACK', 0, 'latin1');
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(count, 8);
    this.emit(head);
  }

  private emit(b: Buffer): void {
    this.hash.update(b);
    this.chunks.push(b);
    this.pending += b.length;
    this.offset += b.length;
  }

  /** Write what is buffered, waiting for git to read it when its pipe is full. */
  async flush(min = 1 << 20): Promise<void> {
    if (this.pending < min) return;
    const ok = this.child.stdin.write(Buffer.concat(this.chunks.splice(0)));
    this.pending = 0;
    if (!ok) await new Promise<void>((resolve) => this.child.stdin.once('drain', () => resolve()));
  }

  private entry(type: number, size: number, body: Buffer, ofs?: Buffer): number {
    const at = this.offset;
    this.emit(entryHeader(type, size));
    if (ofs) this.emit(ofs);
    this.emit(deflateSync(body, { level: 1 }));
    this.written += 1;
    return at;
  }

  /** A blob or a commit, whole. */
  whole(type: 'blob' | 'commit', content: Buffer): void {
    this.entry(TYPES[type], content.length, content);
  }

  /**
   * The next root tree: `bytes` whole, or, when `change` says how it differs from the previous
   * tree written and the chain allows, a delta against that tree.
   */
  tree(bytes: Buffer, change: TreeChange | null): void {
    const base = this.lastTree;
    if (base && change && base.depth < MAX_DEPTH) {
      const delta = spliceDelta(base.size, change.at, change.removed, change.inserted);
      const at = this.offset;
      this.entry(TYPES.ofsDelta, delta.length, delta, ofsBytes(at - base.offset));
      this.lastTree = { offset: at, depth: base.depth + 1, size: bytes.length };
      return;
    }
    this.lastTree = { offset: this.entry(TYPES.tree, bytes.length, bytes), depth: 0, size: bytes.length };
  }

  /** End the pack (its trailing checksum) and wait for git to index it. */
  async end(): Promise<void> {
    if (this.written !== this.count) throw new Error(`the pack was to hold ${this.count} objects, ${this.written} were written`);
    const sum = this.hash.digest();
    this.chunks.push(sum);
    this.pending += sum.length;
    await this.flush(0);
    this.child.stdin.end();
    const r = await this.closed;
    if (r.code !== 0) throw new Error(`git index-pack exited ${r.code}: ${r.stderr.trim()}`);
  }
}
