// RUN-4: a headless job reports its tool use whatever the checkout holds. The REAL Claude Code
// CLI runs through the claude adapter's `run` in a repo with no committed .claude/settings.json;
// the hooks travel with the job's own settings, so the relay gets the live events and the bus the checkpoint.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planTurn } from '../adapters/claude-script';
import { adapterBin, busEvents, CLAUDE_BIN, claudeEnv, cleanup, eventually, git, runProcess, type Home, type TestRelay } from '../adapters/harness';
import { claudeWorld } from '../adapters/world';
import type { MessagesApi } from '../stand-ins/messages-api';

let api: MessagesApi;
let relay: TestRelay;
let h: Home;
let repo: string;
let bus: string;

beforeAll(async () => {
  // Not wired: the job's own settings carry the hooks.
  ({ api, h, relay, repo, bus } = await claudeWorld({ wired: false, branch: 'agent/T-job' }));
});

afterAll(cleanup);

describe('job hooks', () => {
  it('RUN-4: a job in a repo whose Claude settings are not committed still posts its tool events, idle and end, and checkpoints', async () => {
    expect(git(repo, 'ls-files', '.claude')).toBe('');
    expect(fs.existsSync(path.join(repo, '.claude', 'settings.json'))).toBe(false);
    planTurn(api, [{ name: 'Bash', input: { command: 'touch job-made.txt' } }], 'job finished');
    const ran = await runProcess(adapterBin('claude', 'run'), [], {
      cwd: repo,
      env: claudeEnv(h, api.url, {
        COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: repo, AGENT_PROMPT: 'make the file', AGENT_MODE: 'work', AGENT_COMMANDS: 'touch',
        COMMANDR_TASK: 'T-job', COMMANDR_AGENT_ID: 'claude-job-1',
      }),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const session = /^SESSION: (\S+)$/m.exec(ran.stdout)![1]!;
    expect(fs.existsSync(path.join(repo, 'job-made.txt'))).toBe(true);
    // The bus part ran before the CLI exited.
    expect(busEvents(bus).some((e) => e.event === 'task_progress' && e.task === 'T-job' && e.agent === 'claude-job-1')).toBe(true);
    expect(busEvents(bus).some((e) => e.event === 'session_end' && e.session === session)).toBe(true);
    await eventually(() => relay.live().some((e) => e.session === session && e.kind === 'end') || undefined, 20_000, 'the end event');
    const mine = relay.live().filter((e) => e.session === session);
    expect(mine.map((e) => `${e.kind}${e.running ? ':running' : ''}`)).toEqual(['command:running', 'command', 'idle', 'end']);
    expect(mine.every((e) => e.task === 'T-job' && e.agent === 'claude-job-1')).toBe(true);
    // Nothing was written into the checkout to get there.
    expect(fs.existsSync(path.join(repo, '.claude', 'settings.json'))).toBe(false);
  });
});
