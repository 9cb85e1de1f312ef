import { defineConfig } from 'vitest/config';
import { vitestWorkers } from './test/suite-workers';
import { agentCliFiles, NOT_VITEST, vitestGroup } from './test/suite-groups';

// SUITE-8: COMMANDR_VITEST_GROUP runs the files that start a real agent CLI, or every other file.
const group = vitestGroup();
const agentClis = group ? agentCliFiles(__dirname) : [];

// Unit tests sit beside their code; integration suites live in test/.
// Playwright specs (e2e/) are run by Playwright, not here.
export default defineConfig({
  test: {
    include: group === 'agent-clis' ? agentClis : ['**/*.test.ts'],
    exclude: [...NOT_VITEST.map((dir) => `${dir}/**`), ...(group === 'others' ? agentClis : [])],
    // Hang bounds, not speed targets (SUITE-4): files run side by side and beside Playwright, and a
    // real CLI's turn takes several times longer on a busy machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file per core (SUITE-4): each has its own temp dirs, relays and ports. vitest's own default
    // (cores − 1) is 1 on 2 cores, which left a core idle: a file keeps about one core busy on average.
    maxWorkers: vitestWorkers(),
    // Tests make real git commits: give them an identity on any machine.
    env: {
      GIT_AUTHOR_NAME: 'Commandr Test', GIT_AUTHOR_EMAIL: 'test@commandr.invalid',
      GIT_COMMITTER_NAME: 'Commandr Test', GIT_COMMITTER_EMAIL: 'test@commandr.invalid',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
