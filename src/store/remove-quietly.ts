import { rmSync } from 'node:fs';

/**
 * Remove a private temporary file after a write that failed, if it is there. It never throws:
 * the failure being handled is the one worth reporting, not a second one while cleaning up.
 *
 * @param path - the temporary file
 */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing more to do: the file (or its directory) is not what it should be
  }
}
