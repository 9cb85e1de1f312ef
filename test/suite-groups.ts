// Which vitest files drive the real agent CLIs (SUITE-8), read by vitest.config.mts: with
// COMMANDR_TEST_TOGETHER=split `npm test` runs those files on their own and every other file beside the
// browser suite. Claude Code and OpenCode turns are what a busy machine slows most (several seconds of
// CPU each), and the only tests that failed side by side with Playwright on 2 cores were such turns (SUITE-3).
// The group is read from each file's text, so a new file that starts a real CLI joins it by itself.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/** What a test file names when it starts Claude Code or OpenCode (directly, or through a world that does). */
export const AGENT_CLI_MARK = /\b(CLAUDE_BIN|OPENCODE_BIN|claudeWorld|openCodeWorld|useClaudeWorld|useOpenCodeWorld|claudeRelayWorld|useClaudeRelayWorld|claudeTurnEnv)\b|node_modules\/\.bin\/(claude|opencode)\b|'\.bin', '(claude|opencode)'/;

/** The top-level directories vitest never looks in (vitest.config.mts excludes `<dir>/**`); under them, no test file. */
export const NOT_VITEST = ['node_modules', 'dist', 'e2e', '.next', 'out'] as const;
const SKIP = new Set<string>(NOT_VITEST);

/** Every `*.test.ts` under `root` (as vitest.config.mts includes them), relative to it, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(dir, entry.name));
      } else if (entry.name.endsWith('.test.ts')) {
        found.push(path.relative(root, path.join(dir, entry.name)));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** The test files that start a real agent CLI (SUITE-8). */
export function agentCliFiles(root: string): string[] {
  return testFiles(root).filter((file) => AGENT_CLI_MARK.test(readFileSync(path.join(root, file), 'utf8')));
}

export type VitestGroup = 'agent-clis' | 'others';

/**
 * COMMANDR_VITEST_GROUP: `agent-clis` runs only the files that start a real agent CLI, `others` every
 * other file; unset or empty runs them all. Anything else is refused naming the variable.
 */
export function vitestGroup(env: Env = process.env): VitestGroup | undefined {
  const value = env.COMMANDR_VITEST_GROUP;
  if (value === undefined || value === '') return undefined;
  if (value === 'agent-clis' || value === 'others') return value;
  throw new Error(`COMMANDR_VITEST_GROUP must be agent-clis or others, not ${JSON.stringify(value)}`);
}
