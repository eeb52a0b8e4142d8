import { join } from 'node:path';
import { writeObject } from './write-object.js';

/** What reads the base trees: an object by sha, raw, or null when the repository lacks it (the store's `RepoReader`). */
interface ObjectReader {
  object(sha: string): Promise<Buffer | null>;
}

interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  name: string;
}

/** Parse a raw (binary) tree object into entries. */
export function parseTree(raw: Buffer): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < raw.length) {
    const space = raw.indexOf(32, i);
    const nul = raw.indexOf(0, space);
    const mode = raw.subarray(i, space).toString('utf8');
    const name = raw.subarray(space + 1, nul).toString('utf8');
    const sha = raw.subarray(nul + 1, nul + 21).toString('hex');
    out.push({ mode, type: mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob', sha, name });
    i = nul + 21;
  }
  return out;
}

/** Git's order of tree entries: by name, a directory compared as if its name ended in `/`. */
function entryKey(e: TreeEntry): Buffer {
  return Buffer.from(e.type === 'tree' ? `${e.name}/` : e.name, 'utf8');
}

/**
 * Write the tree that results from changing some paths of a base tree, recursing into
 * subdirectories such as `access/` and `proposals/<ledger>/`. The tree objects are built and
 * written in process (the bytes `git mktree` writes), never through an index.
 *
 * @param repo - the repository's work tree (`state/canvas`)
 * @param reader - reads the base tree objects
 * @param base - the base tree sha, or null for an empty tree
 * @param changes - path to new blob sha, or null to delete the path
 * @returns the new tree's sha
 */
export async function writeTree(repo: string, reader: ObjectReader, base: string | null, changes: ReadonlyMap<string, string | null>): Promise<string> {
  const entries = new Map<string, TreeEntry>();
  if (base) {
    const raw = await reader.object(base);
    for (const e of raw ? parseTree(raw) : []) entries.set(e.name, e);
  }
  const nested = new Map<string, Map<string, string | null>>();
  for (const [path, sha] of changes) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      if (sha === null) entries.delete(path);
      else entries.set(path, { mode: '100644', type: 'blob', sha, name: path });
    } else {
      const dir = path.slice(0, slash);
      const sub = nested.get(dir) ?? new Map<string, string | null>();
      sub.set(path.slice(slash + 1), sha);
      nested.set(dir, sub);
    }
  }
  for (const [dir, sub] of nested) {
    const existing = entries.get(dir);
    const sha = await writeTree(repo, reader, existing?.type === 'tree' ? existing.sha : null, sub);
    entries.set(dir, { mode: '40000', type: 'tree', sha, name: dir });
  }
  const sorted = [...entries.values()].map((e) => ({ e, key: entryKey(e) })).sort((a, b) => Buffer.compare(a.key, b.key));
  const parts: Buffer[] = [];
  for (const { e } of sorted) {
    parts.push(Buffer.from(`${e.mode === '040000' ? '40000' : e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.sha, 'hex'));
  }
  return writeObject(join(repo, '.git'), 'tree', Buffer.concat(parts));
}
