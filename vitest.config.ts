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
  },
});
