import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { sweepAbandoned } from '../store/index.js';

/**
 * The random part of this thread's temporary names, drawn once, at the first write (a worker loads
 * its own copy of this module; a build that writes nothing draws none), then a count: four
 * random bytes drawn for each file cost about as much CPU as its rename.
 */
let tag: string | null = null;
let written = 0;

/** A private file's name: `.<name>.<pid>.<random><count>.tmp`, the pid in the first group. */
const PRIVATE = /^\..+\.([1-9]\d{0,6})\.[0-9a-f]{8}[0-9a-z]+\.tmp$/;

/**
 * When this thread last swept each folder (milliseconds since the epoch): a folder is swept before
 * the first file written there, and again an hour later, when what a build killed since could be
 * old enough to go.
 */
const swept = new Map<string, number>();

/** How long a sweep of a folder holds: what it kept was younger than an hour. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Write one file of the site atomically (docs/site.md, "Where the build writes"): a private file
 * created afresh beside it (`.<name>.<pid>.<random><count>.tmp`, never opened through whatever was at
 * its name), renamed into place. The caller has judged the path and made its folder. Before the
 * first file a thread writes in a folder, the private files builds killed there left are removed
 * (their process gone and an hour old: docs/site.md, "Where the build writes").
 *
 * @param root - the output directory, as a real path
 * @param given - the output directory as the caller named it (for the message)
 * @param rel - the path relative to the output directory (`index.html`, `r/comment.md`)
 * @param content - the text (UTF-8), or bytes
 * @throws CanvasError `BAD_OUT_DIR` when the file cannot be written
 */
export function writeSiteFile(root: string, given: string, rel: string, content: string | Uint8Array): void {
  const slash = rel.lastIndexOf('/');
  const folder = join(root, rel.slice(0, slash + 1));
  const now = Date.now();
  if (now - (swept.get(folder) ?? 0) > SWEEP_EVERY_MS) {
    swept.set(folder, now);
    sweepAbandoned(folder, PRIVATE);
  }
  tag ??= randomBytes(4).toString('hex');
  const tmp = join(root, `${rel.slice(0, slash + 1)}.${rel.slice(slash + 1)}.${process.pid}.${tag}${(written++).toString(36)}.tmp`);
  try {
    writeFileSync(tmp, content, { flag: 'wx' });
    renameSync(tmp, join(root, rel));
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new CanvasError('BAD_OUT_DIR', `--out ${given} cannot be written (${rel}): ${(e as Error).message}`, 'free some space or fix the permissions, then build again', {
      out: given,
      path: rel,
    });
  }
}
