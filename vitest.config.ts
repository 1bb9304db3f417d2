import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The corpus layer reports itself in one line (and fails a CI run that skipped it with the corpus present).
    reporters: ['default', './test/support/corpus-reporter.ts'],
  },
});
