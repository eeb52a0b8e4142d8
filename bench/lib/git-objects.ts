// Git object ids computed in process: the generator needs each commit's sha before git has seen
// it (ids are minted from the revision, and every commit names the canvas's previous one).
import { createHash } from 'node:crypto';

/** The sha of a git object of a type with these bytes. */
export function objectSha(type: 'blob' | 'tree' | 'commit', content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/**
 * A root tree of plain files whose entries are patched in place: each write of a known path
 * rewrites 20 bytes, so the tree of each of many commits costs one hash, not a rebuild.
 */
export class FlatTree {
  private names: string[] = [];
  private shas = new Map<string, string>();
  private buffer = Buffer.alloc(0);
  private offsets = new Map<string, number>();

  /** Set a path's blob sha. */
  set(name: string, sha: string): void {
    const at = this.offsets.get(name);
    if (at !== undefined) {
      this.shas.set(name, sha);
      this.buffer.write(sha, at, 'hex');
      return;
    }
    this.shas.set(name, sha);
    // Plain files only: git orders them by their bytes.
    this.names.push(name);
    this.names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const parts: Buffer[] = [];
    this.offsets.clear();
    let length = 0;
    for (const n of this.names) {
      const head = Buffer.from(`100644 ${n}\0`);
      parts.push(head, Buffer.from(this.shas.get(n)!, 'hex'));
      this.offsets.set(n, length + head.length);
      length += head.length + 20;
    }
    this.buffer = Buffer.concat(parts);
  }

  /** The tree's sha. */
  sha(): string {
    return objectSha('tree', this.buffer);
  }
}

/** The bytes of a commit object as `git commit-tree` and `git fast-import` write them. */
export function commitObject(tree: string, parent: string | null, author: string, committer: string, message: string): Buffer {
  return Buffer.from(`tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${author}\ncommitter ${committer}\n\n${message}`);
}
