import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: many files wait on a browser, Redis or a child process, so two workers keep both cores busy.
    maxWorkers: 2,
    // The corpus layer reports itself in one line (and fails a CI run that skipped it with the corpus present).
    reporters: ['default', './test/support/corpus-reporter.ts'],
  },
});
