import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    // CANVAS_TEST_CPU=FILE: each test file appends the CPU time it cost to FILE (docs/architecture.md, "The test suite").
    setupFiles: ['test/helpers/setup-env.ts', ...(process.env.CANVAS_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [])],
  },
});
