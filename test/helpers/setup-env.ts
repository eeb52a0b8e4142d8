// Deterministic git in tests (STYLE habit 8): fixed dates so shas can be asserted literally.
process.env.GIT_AUTHOR_DATE = '2026-01-01T00:00:00Z';
process.env.GIT_COMMITTER_DATE = '2026-01-01T00:00:00Z';
process.env.CANVAS_AUTHOR = undefined as unknown as string;
delete process.env.CANVAS_AUTHOR;
delete process.env.CANVAS_WORKSPACE;
delete process.env.OPENCLAW_WORKSPACE;
process.env.NO_COLOR = '1';
