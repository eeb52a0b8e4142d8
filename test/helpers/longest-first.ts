// The order the test files start in (docs/testing.md, "The longest files first"). Two files run at a
// time, each started as a worker frees up, so the run ends when its last file does: a long file
// started late runs alone at the end, one core idle. Vitest starts the files it has timed before
// longest first, but a fresh checkout has no timings and it starts the largest first, which put
// the concurrency and idle-soak tests among the last. The files of LONGEST, the longest at idle
// (most of their time waiting on browsers, processes and locks), start first, in this order; the
// rest follow in vitest's order.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files at idle, in the order they start (wall, s, each run beside another file):
 * the two Chromium files (41, 38) are kept apart, the second starting about when the first ends,
 * since each keeps more than one core busy at times and the two side by side took 67 and 70 s;
 * the install from a clone (a whole `npm ci`: 160 s at a load of 17, 51 s of CPU), the package
 * (22), concurrency (9) and idle-soak (12) run beside the first.
 */
const LONGEST = [
  'test/serve/serve-in-browser.test.ts',
  'test/install.test.ts',
  'test/package.test.ts',
  'test/store/write/concurrency.test.ts',
  'test/store/git/idle-soak.test.ts',
  'test/site/pages-in-browser.test.ts',
  'test/store/remote/remote-writes.test.ts',
  'test/store/verify/verify-corpus.test.ts',
  'test/store/files/full-disk.test.ts',
];

/** Vitest's order, with the files of {@link LONGEST} moved to the front. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const gone = LONGEST.filter((f) => !existsSync(join(root, f)));
    if (gone.length > 0) throw new Error(`test/helpers/longest-first.ts names test files that are gone: ${gone.join(', ')}`);
    const rank = (s: TestSpecification) => {
      const i = LONGEST.indexOf(relative(root, s.moduleId));
      return i < 0 ? LONGEST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((s, i) => ({ s, i, r: rank(s) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map(({ s }) => s);
  }
}
