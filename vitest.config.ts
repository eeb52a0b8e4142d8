import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

/**
 * The test files of pure functions and in-process renders (test/model/, test/render/ but for the
 * browser tests), and those of {@link IN_PROCESS}, share their worker processes instead of each
 * file starting afresh and loading its modules again (docs/architecture.md, "The test suite"). A
 * file there changes no process state (the environment, mocks, timers) and spawns neither the CLI
 * nor a browser; every other file runs in a process of its own.
 */
const PURE = ['test/model/**/*.test.ts', 'test/render/*.test.ts', 'test/render/{comment,text}/*.test.ts', 'test/render/figures/!(*-in-browser).test.ts', 'test/render/html/{node-reasons,render-page}.test.ts'];

/**
 * The files that call the store, the CLI's entry (test/helpers/run-main.ts, which puts back what
 * it sets), the MCP server's tools or the publishers in process, each in temporary directories of its own, and are held to
 * the same rule: no process state changed, no CLI, MCP server or browser spawned (git is). Shared,
 * these 45 cost about 52 s of CPU instead of 70 (docs/architecture.md, "The test suite").
 */
const IN_PROCESS = [
  'test/architecture.test.ts',
  'test/check/coherence-eval.test.ts',
  'test/cli/approve-reasons.test.ts',
  'test/cli/bad-characters.test.ts',
  'test/cli/bidi-reasons.test.ts',
  'test/cli/command-groups.test.ts',
  'test/cli/desk-command.test.ts',
  'test/cli/done-command.test.ts',
  'test/cli/hints-run.test.ts',
  'test/cli/remote-commands.test.ts',
  'test/cli/spec-example.test.ts',
  'test/cli/swapped-arguments.test.ts',
  'test/hostile/author-form.test.ts',
  'test/hostile/reserved-ledger.test.ts',
  'test/hostile/size-limits.test.ts',
  'test/import/import-markdown.test.ts',
  'test/import/plan-import.test.ts',
  'test/mcp/mcp-hint.test.ts',
  'test/mcp/open-tool.test.ts',
  'test/mcp/order-calls.test.ts',
  'test/publish/basecamp-client.test.ts',
  'test/publish/markdown-to-basecamp.test.ts',
  'test/publish/publish-comment.test.ts',
  'test/site/bench-pack.test.ts',
  'test/site/build-from-remote.test.ts',
  'test/site/canvas-links.test.ts',
  'test/site/index-endings.test.ts',
  'test/store/write/approve-retry.test.ts',
  'test/store/repo/cache-file-names.test.ts',
  'test/store/repo/canvas-commit.test.ts',
  'test/store/read/canvas-edges.test.ts',
  'test/store/write/check-figures.test.ts',
  'test/store/write/crash-files.test.ts',
  'test/store/verify/cut-ref-update.test.ts',
  'test/store/write/endings.test.ts',
  'test/store/repo/facts-cache-authority.test.ts',
  'test/store/read/link-graph-cache.test.ts',
  'test/store/read/list-canvas-entries.test.ts',
  'test/store/watch/ref-watcher.test.ts',
  'test/store/remote/remote-backoff.test.ts',
  'test/store/search/search-corpus.test.ts',
  'test/store/search/search-rank.test.ts',
  'test/store/search/search.test.ts',
  'test/store/verify/verify-rules.test.ts',
  'test/store/git/write-object.test.ts',
  'test/surface.test.ts',
];

const SHARED = [...PURE, ...IN_PROCESS];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core at a time. Vitest's default, one fewer than the cores, leaves a
    // two-core machine with a single file running while the other core waits on the main process
    // (docs/architecture.md, "The test suite").
    maxWorkers: availableParallelism(),
    // The longest files start first, so none of them runs alone at the end (test/helpers/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // CANVAS_TEST_CPU=FILE: each test file appends the CPU time it cost to FILE (docs/architecture.md, "The test suite").
    // The run's temporary directory, named in TMPDIR before any worker starts and removed at the
    // end; the run fails naming what a test left there (test/helpers/suite-tmpdir.ts).
    globalSetup: ['test/helpers/suite-tmpdir.ts'],
    setupFiles: ['test/helpers/setup-env.ts', ...(process.env.CANVAS_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [])],
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      { extends: true, test: { name: 'own', include: ['test/**/*.test.ts'], exclude: SHARED, globalSetup: ['test/helpers/global-setup.ts'] } },
    ],
  },
});
