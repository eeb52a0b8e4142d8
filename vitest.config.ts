import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

/**
 * A test file named `*.shared.test.ts` shares its worker process with the others so named instead
 * of starting afresh and loading its modules again: a process of its own costs about 0.3 to 0.8 s
 * of CPU (docs/testing.md, "Shared workers"). Name a file so only if it changes no process
 * state (the environment, mocks, timers: test/helpers/run-main.ts puts back what it sets) and
 * spawns neither the CLI (so no MCP client either) nor a browser, git only: the pure functions and
 * in-process renders, and the files that call the store, the CLI's entry, the MCP server's tools or
 * the publishers in process, each in temporary directories of its own. Every other file runs in a
 * process of its own.
 */
const SHARED = ['test/**/*.shared.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core at a time. Vitest's default, one fewer than the cores, leaves a
    // two-core machine with a single file running while the other core waits on the main process
    // (docs/testing.md, "Two files at a time").
    maxWorkers: availableParallelism(),
    // The longest files start first, so none of them runs alone at the end (test/helpers/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // CANVAS_TEST_CPU=FILE: each test file appends the CPU time it cost to FILE (docs/testing.md, "A file's CPU").
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
