import { randomHex } from './random-hex.js';

/**
 * The name of a private file in `.git/canvas-tmp/` for the file `rel` (docs/store.md, "Temporary
 * files"): `rel` with each `/` as `__`, then `.<pid>.<8 hex digits>`, the pid this process's. The
 * pid is what lets a later command tell a file a killed process abandoned from a live writer's;
 * the hex digits keep two writers of one process (threads share a pid) apart.
 *
 * @param rel - the path the file will take, relative to the repository (`access/r.json`) or to
 *   `.git` (`canvas-cache/trees/r.json`); the two never meet: no working file is under a folder
 *   named like one of `.git`'s
 * @returns a file name (`access__r.json.4242.0a1b2c3d`)
 */
export function privateName(rel: string): string {
  return `${rel.replaceAll('/', '__')}.${process.pid}.${randomHex(8)}`;
}
