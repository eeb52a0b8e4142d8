// Deterministic git in tests (STYLE habit 8): fixed dates so shas can be asserted literally.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
process.env.GIT_AUTHOR_DATE = '2026-01-01T00:00:00Z';
process.env.GIT_COMMITTER_DATE = '2026-01-01T00:00:00Z';
process.env.CANVAS_AUTHOR = undefined as unknown as string;
delete process.env.CANVAS_AUTHOR;
delete process.env.CANVAS_WORKSPACE;
delete process.env.OPENCLAW_WORKSPACE;
process.env.NO_COLOR = '1';
// The CLI's compile cache of test runs lives apart from the user's (docs/cli.md).
process.env.CANVAS_COMPILE_CACHE = join(tmpdir(), `canvas-test-compile-cache-${process.getuid?.() ?? 0}`);
delete process.env.CANVAS_DISABLE_COMPILE_CACHE;
