// A headless Claude Code work job may edit only inside its worktree (issue 10 item 6):
// the REAL CLI through `adapters/claude/run`, the Messages API stand-in, no relay.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesApi, type MessagesApi } from '../stand-ins/messages-api';
import { planTurn, type PlannedTool } from '../adapters/claude-script';
import { adapterBin, CLAUDE_BIN, claudeEnv, cleanup, git, makeHome, makeRepo, runProcess, tempDir, type Home } from '../adapters/harness';

let api: MessagesApi;
let h: Home;
let repo: string;
let outside: string;

beforeAll(async () => {
  api = await startMessagesApi({ apiKey: 'sk-test' });
  h = makeHome();
  ({ repo } = makeRepo());
  outside = tempDir('commandr-outside-');
  fs.symlinkSync(outside, path.join(repo, 'linked'));
});

afterAll(async () => {
  await api.close();
  await cleanup();
});

function job(tools: PlannedTool[]) {
  planTurn(api, tools, 'job finished');
  return runProcess(adapterBin('claude', 'run'), [], {
    cwd: repo, env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: repo, AGENT_MODE: 'work', AGENT_PROMPT: 'work' }),
  });
}

describe('a work job edits only inside its worktree', () => {
  it('GUARD-8: a write outside the worktree is refused; one inside succeeds', async () => {
    const ran = await job([
      { name: 'Write', input: { file_path: path.join(outside, 'escaped.txt'), content: 'out\n' } },
      { name: 'Write', input: { file_path: path.join(repo, 'inside.txt'), content: 'in\n' } },
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(repo, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(ran.stderr).toContain(`denied Write ${path.join(outside, 'escaped.txt')}`);
  }, 120_000);

  it('GUARD-8: a symlink inside the worktree that leads outside is refused by its real path', async () => {
    const ran = await job([{ name: 'Write', input: { file_path: path.join(repo, 'linked', 'sneaky.txt'), content: 'x\n' } }]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'sneaky.txt'))).toBe(false);
  }, 120_000);

  it('GUARD-8: the launch intent allows `git commit`, yet the job cannot skip the commit gate', async () => {
    fs.writeFileSync(path.join(repo, 'change.txt'), 'x\n');
    git(repo, 'add', 'change.txt');
    const before = git(repo, 'rev-parse', 'HEAD');
    const ran = await job([{ name: 'Bash', input: { command: 'git commit --no-verify -m sneaky' } }]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(before);
  }, 120_000);
});
