// The run's temporary directory (docs/testing.md, "The run's temporary directory"): one directory,
// `<tmpdir>/canvas-suite-XXXXXX`, made before any worker starts and named in TMPDIR, which the
// workers, the CLIs they spawn, git and Chromium inherit (`os.tmpdir()` reads it at each call).
// The teardown removes it whole, also when tests failed or were cut short, and fails the run
// naming what was left in it but the caches it keeps on purpose: every file removes the
// directories its helpers made (test/helpers/temp-dir.ts), so anything else left there was made by
// the CLI, the library or a test on its own, and would have stayed behind in the machine's
// temporary directory.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The CLI's compile cache of the run (test/helpers/setup-env.ts), made with the directory. */
export const COMPILE_CACHE = 'compile-cache';

/**
 * What the run keeps in its directory on purpose, and removes with it: the compile cache, and
 * tsx's cache of the sources it compiled (`tsx-<uid>`; the site's build workers load the sources
 * through tsx when they run from them).
 */
const KEPT = new Set([COMPILE_CACHE, `tsx-${process.getuid?.() ?? 0}`]);

/**
 * Make the run's directory and point TMPDIR at it. Vitest runs a global setup once per project
 * and once more for the root configuration, which every project extends: the first call makes
 * the directory, the later ones find CANVAS_SUITE_TMPDIR set and do nothing.
 *
 * @returns the teardown: it removes the directory; when something was left in it, it sets the
 *   exit code to 1 and throws naming what
 */
export default function setup(): (() => void) | undefined {
  if (process.env.CANVAS_SUITE_TMPDIR) return undefined;
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'canvas-suite-'));
  // Others may pass through it, as through /tmp, but not list it: a test runs the CLI as another
  // user on a workspace made in it (test/cli/permission-denied.test.ts). What is made in it is
  // the owner's alone (mkdtemp's 0700).
  chmodSync(dir, 0o711);
  mkdirSync(join(dir, COMPILE_CACHE), { mode: 0o700 });
  process.env.CANVAS_SUITE_TMPDIR = dir;
  process.env.TMPDIR = dir;
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(dir).filter((name) => !KEPT.has(name));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (outer === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = outer;
      delete process.env.CANVAS_SUITE_TMPDIR;
    }
    if (left.length > 0) {
      // Vitest prints an error of a teardown and exits 0 all the same: the exit code is set here.
      process.exitCode = 1;
      const shown = left.sort().slice(0, 20).join(', ');
      throw new Error(
        `the run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in its temporary directory (removed now): ${shown}${left.length > 20 ? ', ...' : ''}. ` +
          'A test makes its directories with tempDir or tempWorkspace (test/helpers/temp-dir.ts), which removes them after the file; anything else is left by the CLI, the library or the test itself.',
      );
    }
  };
}
