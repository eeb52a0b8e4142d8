import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { applyDelta } from './apply-delta.js';
import type { GitObject } from './git-batch.js';

/** One pack: its index's fan-out table, both files open. */
interface Pack {
  idx: number;
  pack: number;
  /** Objects in the pack. */
  count: number;
  /** fanout[b]: how many object names begin with a byte <= b. */
  fanout: Uint32Array;
}

const TYPES = ['', 'commit', 'tree', 'blob', 'tag'] as const;
const SHA = /^[0-9a-f]{40}$/;
/** The refs the store reads (`refs/heads/main`, `refs/canvas/<ledger>`): plain names only. */
const REF = /^refs\/(?:heads|canvas)\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;
/** A path in a tree: names without `.`, `..`, empty components or anything git's syntax reads. */
const PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[^/:\n^~@{}*?[\\]+(?:\/[^/:\n^~@{}*?[\\]+)*$/;
/** Bases kept inflated for the next delta on them (a tree's chain is read again by the next path). */
const KEEP = 64;

/** Read `length` bytes at `position` (fewer at the end of the file). */
function pread(fd: number, position: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  const n = readSync(fd, b, 0, length, position);
  return n === length ? b : b.subarray(0, n);
}

/**
 * Objects and refs of one repository read in process, the way `git cat-file --batch` reads them,
 * for the few expressions the store's reader asks (docs/store.md, "Long-lived git processes"):
 * `refs/heads/main`, `refs/canvas/<ledger>`, a full sha, and either of those followed by
 * `:<path>`. Refs come from their loose file, else from `packed-refs`; objects from their loose
 * file, else from the packs (index version 2, SHA-1), deltas applied. Anything else, and anything
 * not found or not as expected (a symbolic ref, an object only an alternate holds, a pack of
 * another format, a file that changed while it was read), gets no answer here: the caller asks
 * git, whose answer is the authority. So a read that needs no process starts none; measured in
 * docs/performance.md, "Start-up".
 *
 * Objects are named by the hash of their bytes, so one found anywhere is the right one; refs are
 * read afresh at every call, as git reads them. The packs are listed once per reader (a pack made
 * since is missed, and git answers). Close it to release the files.
 */
export class LocalObjects {
  private packs: Pack[] | null = null;
  private readonly bases = new Map<string, { type: string; content: Buffer }>();

  /** @param gitDir - the repository's `.git` directory */
  constructor(private readonly gitDir: string) {}

  /**
   * The object at an expression; null when its commit's tree certainly has no such path;
   * undefined when it is not answered here (ask git).
   *
   * @param rev - `refs/heads/main`, `refs/canvas/<ledger>` or a 40-hex sha, followed by
   *   `^{commit}` or by `:<path>`, or alone
   * @returns the object with its sha, type and bytes, null, or undefined
   */
  read(rev: string): GitObject | null | undefined {
    try {
      const colon = rev.indexOf(':');
      let at = colon < 0 ? rev : rev.slice(0, colon);
      const peel = colon < 0 && at.endsWith('^{commit}');
      if (peel) at = at.slice(0, -'^{commit}'.length);
      const sha = SHA.test(at) ? at : REF.test(at) && !at.endsWith('.lock') ? this.ref(at) : undefined;
      if (sha === undefined) return undefined;
      if (colon < 0) {
        const o = this.object(sha);
        return peel && o?.type !== 'commit' ? undefined : o;
      }
      const path = rev.slice(colon + 1);
      return PATH.test(path) ? this.entry(sha, path) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Release the open files. */
  close(): void {
    for (const p of this.packs ?? []) {
      closeSync(p.idx);
      closeSync(p.pack);
    }
    this.packs = null;
    this.bases.clear();
  }

  /** A ref's sha: its loose file, else its line in `packed-refs`; undefined otherwise. */
  private ref(name: string): string | undefined {
    let text: string | undefined;
    try {
      text = readFileSync(join(this.gitDir, name), 'latin1');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
    if (text !== undefined) return /^[0-9a-f]{40}\n$/.test(text) ? text.slice(0, 40) : undefined;
    const packed = readFileSync(join(this.gitDir, 'packed-refs'), 'latin1');
    const m = new RegExp(`^([0-9a-f]{40}) ${name.replace(/\./g, '\\.')}$`, 'm').exec(packed);
    return m?.[1];
  }

  /** The object a path names in a commit's tree (null: the tree has no such entry). */
  private entry(commit: string, path: string): GitObject | null | undefined {
    const c = this.object(commit);
    if (c?.type !== 'commit') return undefined;
    const tree = /^tree ([0-9a-f]{40})\n/.exec(c.content.toString('latin1', 0, 46));
    let sha: string | null | undefined = tree?.[1];
    for (const name of path.split('/')) {
      if (sha === null || sha === undefined) return sha;
      const t = this.object(sha);
      // A path through a file names nothing, as git says; anything unread is git's to answer.
      if (t?.type === 'blob') return null;
      if (t?.type !== 'tree') return undefined;
      sha = this.find(t.content, name);
    }
    return sha === null || sha === undefined ? sha : this.object(sha);
  }

  /** The sha of a name's entry in a tree object, null when there is none (undefined: a gitlink or a damaged tree). */
  private find(tree: Buffer, name: string): string | null | undefined {
    const want = Buffer.from(name, 'utf8');
    let at = 0;
    while (at < tree.length) {
      const space = tree.indexOf(0x20, at);
      const nul = tree.indexOf(0, space);
      if (space < 0 || nul < 0 || nul + 21 > tree.length) return undefined;
      const mode = tree.toString('latin1', at, space);
      if (nul - space - 1 === want.length && tree.compare(want, 0, want.length, space + 1, nul) === 0) {
        return mode === '160000' ? undefined : tree.toString('hex', nul + 1, nul + 21);
      }
      at = nul + 21;
    }
    return null;
  }

  /** An object by sha: its loose file, else a pack. */
  private object(sha: string): GitObject | undefined {
    const found = this.loose(sha) ?? this.packed(sha, 0);
    return found && { sha, type: found.type as GitObject['type'], content: found.content };
  }

  /** A loose object (`objects/<2>/<38>`: zlib of `<type> <size>\0` and the bytes). */
  private loose(sha: string): { type: string; content: Buffer } | undefined {
    let file: Buffer;
    try {
      file = readFileSync(join(this.gitDir, 'objects', sha.slice(0, 2), sha.slice(2)));
    } catch {
      return undefined;
    }
    const raw = inflateSync(file);
    const nul = raw.indexOf(0);
    const [type, size] = raw.toString('latin1', 0, nul).split(' ');
    const content = raw.subarray(nul + 1);
    return type && TYPES.includes(type as (typeof TYPES)[number]) && Number(size) === content.length ? { type, content } : undefined;
  }

  /** An object from the first pack that holds it. */
  private packed(sha: string, depth: number): { type: string; content: Buffer } | undefined {
    const name = Buffer.from(sha, 'hex');
    for (const p of this.listPacks()) {
      const offset = this.offsetIn(p, name);
      if (offset !== undefined) return this.at(p, offset, depth);
    }
    return undefined;
  }

  /** The packs with an index of version 2 whose size is that of SHA-1 names, opened once. */
  private listPacks(): Pack[] {
    if (this.packs) return this.packs;
    this.packs = [];
    const dir = join(this.gitDir, 'objects', 'pack');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.idx'));
    } catch {
      // No packs.
    }
    for (const n of names) {
      let idx: number | undefined;
      let pack: number | undefined;
      try {
        idx = openSync(join(dir, n), 'r');
        pack = openSync(join(dir, `${n.slice(0, -4)}.pack`), 'r');
        const head = pread(idx, 0, 8 + 1024);
        const packHead = pread(pack, 0, 8);
        const fanout = new Uint32Array(256);
        for (let i = 0; i < 256; i++) fanout[i] = head.readUInt32BE(8 + 4 * i);
        const count = fanout[255]!;
        // The index's size tells SHA-1 names (20 bytes) from SHA-256 ones, which this does not read.
        const extra = fstatSync(idx).size - (8 + 1024 + count * 28 + 40);
        const ok =
          head.readUInt32BE(0) === 0xff744f63 && head.readUInt32BE(4) === 2 && extra >= 0 && extra % 8 === 0 && extra <= count * 8 && packHead.toString('latin1', 0, 4) === 'PACK';
        if (ok) this.packs.push({ idx, pack, count, fanout });
        else throw new Error('not a pack this reads');
      } catch {
        if (idx !== undefined) closeSync(idx);
        if (pack !== undefined) closeSync(pack);
      }
    }
    return this.packs;
  }

  /** Where an object is in a pack, by binary search of the names that share its first byte. */
  private offsetIn(p: Pack, name: Buffer): number | undefined {
    const first = name[0]!;
    const lo = first === 0 ? 0 : p.fanout[first - 1]!;
    const hi = p.fanout[first]!;
    if (hi <= lo) return undefined;
    const names = pread(p.idx, 8 + 1024 + lo * 20, (hi - lo) * 20);
    let a = 0;
    let b = hi - lo;
    while (a < b) {
      const m = (a + b) >>> 1;
      const c = names.compare(name, 0, 20, m * 20, m * 20 + 20);
      if (c === 0) {
        const i = lo + m;
        const small = pread(p.idx, 8 + 1024 + p.count * 24 + i * 4, 4).readUInt32BE(0);
        if ((small & 0x80000000) === 0) return small;
        const large = pread(p.idx, 8 + 1024 + p.count * 28 + (small & 0x7fffffff) * 8, 8);
        return large.readUInt32BE(0) * 2 ** 32 + large.readUInt32BE(4);
      }
      if (c > 0) b = m;
      else a = m + 1;
    }
    return undefined;
  }

  /** The object at an offset of a pack, its deltas applied. */
  private at(p: Pack, offset: number, depth: number): { type: string; content: Buffer } | undefined {
    const key = `${p.pack}:${offset}`;
    const kept = this.bases.get(key);
    if (kept) return kept;
    if (depth > 10_000) return undefined;
    const head = pread(p.pack, offset, 32);
    let at = 0;
    let byte = head[at++]!;
    const kind = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      byte = head[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let base: { type: string; content: Buffer } | undefined;
    if (kind === 6) {
      byte = head[at++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = head[at++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      base = this.at(p, offset - back, depth + 1);
    } else if (kind === 7) {
      const sha = head.toString('hex', at, at + 20);
      base = this.packed(sha, depth + 1) ?? this.loose(sha);
      at += 20;
    } else if (!TYPES[kind]) {
      return undefined;
    }
    if ((kind === 6 || kind === 7) && !base) return undefined;
    // A zlib stream is never longer than deflate's worst case for its data; inflate stops at its end.
    const data = inflateSync(pread(p.pack, offset + at, size + (size >> 3) + (size >> 6) + 64));
    if (data.length !== size) return undefined;
    const found = base ? { type: base.type, content: applyDelta(base.content, data) } : { type: TYPES[kind]!, content: data };
    if (depth > 0) {
      if (this.bases.size >= KEEP) this.bases.delete(this.bases.keys().next().value!);
      this.bases.set(key, found);
    }
    return found;
  }
}
