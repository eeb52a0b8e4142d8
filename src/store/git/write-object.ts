import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { noSpace } from '../files/no-space.js';
import { privateName } from '../files/private-name.js';
import { removeQuietly } from '../files/remove-quietly.js';
import { writePrivateFile } from '../files/write-private-file.js';

/** A git object type the store writes. */
export type ObjectType = 'blob' | 'tree' | 'commit';

/**
 * The sha of a git object (SHA-1, the object format of every repository the store creates).
 *
 * @param type - blob, tree or commit
 * @param content - the object's bytes, without the `<type> <size>\0` header
 * @returns 40 hex characters
 */
export function hashObject(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/**
 * Write a loose object into a repository the way `git hash-object -w` does, without a process
 * (docs/store.md "Writes": objects are built without the shared index): zlib at git's loose-object
 * level (1), into a private file of `.git/canvas-tmp/` (docs/store.md, "Temporary files"; git
 * makes its own in the object's directory), renamed into place, read only. An object already present as a loose file is not written again; objects are
 * content-addressed, so a copy beside a packed one is harmless (git prunes it when it packs).
 * Like `git hash-object -w` with git's default `core.fsync`, the file is not fsynced.
 *
 * @param gitDir - the repository's `.git` directory
 * @param type - blob, tree or commit
 * @param content - the object's bytes
 * @returns the object's sha
 * @throws CanvasError `NO_SPACE` when the disk is full (the private file is removed)
 */
export function writeObject(gitDir: string, type: ObjectType, content: Buffer): string {
  const sha = hashObject(type, content);
  const dir = join(gitDir, 'objects', sha.slice(0, 2));
  const path = join(dir, sha.slice(2));
  if (existsSync(path)) return sha;
  const bytes = deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 });
  let tmp: string | undefined;
  try {
    tmp = writePrivateFile(gitDir, privateName(`objects/${sha.slice(0, 2)}/${sha.slice(2)}`), bytes, 0o444);
    mkdirSync(dir, { recursive: true });
    renameSync(tmp, path);
  } catch (e) {
    if (tmp !== undefined) removeQuietly(tmp);
    throw noSpace(e, path) ?? e;
  }
  return sha;
}
