import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code; integration suites live in test/.
// Playwright specs (e2e/) are run by Playwright, not here.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'e2e/**', '.next/**', 'out/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests make real git commits: give them an identity on any machine.
    env: {
      GIT_AUTHOR_NAME: 'Commandr Test', GIT_AUTHOR_EMAIL: 'test@commandr.invalid',
      GIT_COMMITTER_NAME: 'Commandr Test', GIT_COMMITTER_EMAIL: 'test@commandr.invalid',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
