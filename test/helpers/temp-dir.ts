import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directories made since the last {@link removeTempDirs}: the current test file's. */
const made: string[] = [];

/**
 * A fresh, empty directory in the temporary directory (the run's, test/helpers/suite-tmpdir.ts),
 * removed with everything in it after the test file that made it (test/helpers/setup-env.ts).
 *
 * @param prefix - the start of its name, `canvas-` and what the test is about
 * @returns its absolute path
 */
export function tempDir(prefix = 'canvas-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Remove every directory {@link tempDir} made since the last call (after each test file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
