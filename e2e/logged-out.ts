// A Claude Code that is installed but not logged in (test/stand-ins/logged-out-claude.ts), as the
// relay's agent for every test of a spec: a temp HOME, no key in the environment, restored after.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loggedOutClaude } from '../test/stand-ins/logged-out-claude';
import { test } from './fixtures';

const KEYS = ['HOME', 'COMMANDR_CLAUDE_BIN', 'COMMANDR_AGENT_ADAPTER', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'] as const;

/** Installs the logged-out Claude Code for each test of the calling spec; returns its HOME. */
export function useLoggedOutClaude(prefix: string): { home(): string } {
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  let home = '';
  test.beforeEach(() => {
    home = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
    for (const k of KEYS) delete process.env[k];
    process.env.HOME = home;
    process.env.COMMANDR_CLAUDE_BIN = loggedOutClaude(home);
  });
  test.afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(home, { recursive: true, force: true });
  });
  return { home: () => home };
}
