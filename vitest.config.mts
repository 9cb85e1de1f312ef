import { defineConfig } from 'vitest/config';
import { vitestWorkers } from './test/suite-workers';
import { agentCliFiles, NOT_VITEST, vitestGroup } from './test/suite-groups';

// SUITE-8: COMMANDR_VITEST_GROUP runs the files that start a real agent CLI, or every other file.
const group = vitestGroup();
const agentClis = group ? agentCliFiles(__dirname) : [];

const exclude = [...NOT_VITEST.map((dir) => `${dir}/**`), ...(group === 'others' ? agentClis : [])];
/** A project's files: `pattern`, or with COMMANDR_VITEST_GROUP=agent-clis the agent-CLI files under (or not under) app/. */
const only = (pattern: string, inApp: boolean) => (group === 'agent-clis' ? agentClis.filter((file) => file.startsWith('app/') === inApp) : [pattern]);

// Unit tests sit beside their code; integration suites live in test/.
// Playwright specs (e2e/) are run by Playwright, not here.
export default defineConfig({
  test: {
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
    // SUITE-9: two projects. The app's unit tests (app/) install browser globals (a fake indexedDB,
    // WebSocket and crypto stand-ins) and mock modules, so each file gets a fresh process. Every other
    // file drives real processes, files and sockets and installs no globals: a worker runs those one
    // after another in one process that keeps the modules it has loaded, and test/file-scope.ts gives
    // back after each file the environment and globals it changed. A fresh process and module graph per
    // file was a fifth of vitest's CPU.
    projects: [
      { extends: true, test: { name: 'app', include: only('app/**/*.test.ts', true), exclude } },
      { extends: true, test: { name: 'shared', include: only('**/*.test.ts', false), exclude: [...exclude, 'app/**'], isolate: false, setupFiles: ['test/file-scope.ts'] } },
    ],
  },
});
