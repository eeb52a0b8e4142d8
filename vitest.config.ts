import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

/**
 * The test files of pure functions and in-process renders (test/model/, test/render/ but for the
 * browser tests) share their worker processes instead of each file starting afresh, which costs
 * about 0.4 to 0.8 s of CPU a file (docs/architecture.md, "The test suite"). A file there changes
 * no process state (the environment, mocks, timers) and spawns neither the CLI nor a browser;
 * every other file runs in a process of its own.
 */
const SHARED = ['test/model/**/*.test.ts', 'test/render/*.test.ts', 'test/render/{comment,text}/*.test.ts', 'test/render/figures/!(*-in-browser).test.ts', 'test/render/html/{node-reasons,render-page}.test.ts'];

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
    setupFiles: ['test/helpers/setup-env.ts', ...(process.env.CANVAS_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [])],
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      { extends: true, test: { name: 'own', include: ['test/**/*.test.ts'], exclude: SHARED, globalSetup: ['test/helpers/global-setup.ts'] } },
    ],
  },
});
