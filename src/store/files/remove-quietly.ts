import { unlinkSync } from 'node:fs';

/**
 * Remove a private temporary file (after a write that failed, or a leftover before one), if it is
 * there. It never throws: the failure being handled is the one worth reporting, not a second one
 * while cleaning up. `unlinkSync`, not `rmSync`: Node loads its rimraf module for every `rmSync`.
 *
 * @param path - the temporary file
 */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing more to do: the file (or its directory) is not what it should be
  }
}
