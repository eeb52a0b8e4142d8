// Deterministic git in tests: fixed dates so shas can be asserted literally.
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { COMPILE_CACHE } from './suite-tmpdir.js';
import { removeTempDirs } from './temp-dir.js';
process.env.GIT_AUTHOR_DATE = '2026-01-01T00:00:00Z';
process.env.GIT_COMMITTER_DATE = '2026-01-01T00:00:00Z';
process.env.CANVAS_AUTHOR = undefined as unknown as string;
delete process.env.CANVAS_AUTHOR;
delete process.env.CANVAS_WORKSPACE;
delete process.env.OPENCLAW_WORKSPACE;
process.env.NO_COLOR = '1';
// The CLI's compile cache of a test run lives apart from the user's, in the run's temporary
// directory (test/helpers/suite-tmpdir.ts; docs/cli.md): warmed by the run's first CLIs, removed
// with the directory.
const suite = process.env.CANVAS_SUITE_TMPDIR;
if (!suite) throw new Error('CANVAS_SUITE_TMPDIR is not set: the run starts through vitest.config.ts, whose global setup makes the run its temporary directory');
process.env.CANVAS_COMPILE_CACHE = join(suite, COMPILE_CACHE);
delete process.env.CANVAS_DISABLE_COMPILE_CACHE;
// The directories this file's tests made (test/helpers/temp-dir.ts) go when it ends: registered
// first, this hook runs after the file's own.
afterAll(removeTempDirs);
