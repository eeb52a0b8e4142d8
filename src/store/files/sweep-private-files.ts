import { join } from 'node:path';
import { sweepAbandoned } from './remove-if-abandoned.js';

/**
 * A private file's name: `<name>.<pid>.<8 hex digits>` ({@link privateName}), or `<name>.<pid>`
 * as working files' were named before. A pid has at most 7 digits (Linux's largest is 4194304).
 */
const PRIVATE = /\.([1-9]\d{0,6})(?:\.[0-9a-f]{8})?$/;

/**
 * Remove the private files of `.git/canvas-tmp/` that killed processes abandoned between writing
 * and renaming them (docs/store.md, "Temporary files"), by {@link sweepAbandoned}'s rule. One
 * `readdir`, of a folder that is empty between writes (or absent): run at each write and by
 * `canvas verify`, never by a read. A name that is not a private file's is left alone.
 *
 * @param gitDir - the repository's `.git` directory (or `state/publish`, whose lock and records
 *   are made the same way: docs/basecamp.md, "Idempotent")
 * @returns the names of the files removed, sorted
 */
export function sweepPrivateFiles(gitDir: string): string[] {
  return sweepAbandoned(join(gitDir, 'canvas-tmp'), PRIVATE);
}
