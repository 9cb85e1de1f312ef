// RUN-4: a headless job reports its tool use whatever the checkout holds. The REAL Claude Code
// CLI runs through the claude adapter's `run` in a repo with no committed .claude/settings.json;
// the hooks travel with the job's own settings, so the relay gets the live events and the bus the checkpoint.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTurn } from '../adapters/claude-script';
import { adapterBin, busEvents, CLAUDE_BIN, claudeEnv, eventually, git, runProcess } from '../adapters/harness';
import { useClaudeWorld } from '../adapters/world';

// Not wired: the job's own settings carry the hooks.
const w = useClaudeWorld({ wired: false, branch: 'agent/T-job' });

describe('job hooks', () => {
  it('RUN-4: a job in a repo whose Claude settings are not committed still posts its tool events, idle and end, and checkpoints', async () => {
    expect(git(w.repo, 'ls-files', '.claude')).toBe('');
    expect(fs.existsSync(path.join(w.repo, '.claude', 'settings.json'))).toBe(false);
    planTurn(w.api, [{ name: 'Bash', input: { command: 'touch job-made.txt' } }], 'job finished');
    const ran = await runProcess(adapterBin('claude', 'run'), [], {
      cwd: w.repo,
      env: claudeEnv(w.h, w.api.url, {
        COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: w.repo, AGENT_PROMPT: 'make the file', AGENT_MODE: 'work', AGENT_COMMANDS: 'touch',
        COMMANDR_TASK: 'T-job', COMMANDR_AGENT_ID: 'claude-job-1',
      }),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const session = /^SESSION: (\S+)$/m.exec(ran.stdout)![1]!;
    expect(fs.existsSync(path.join(w.repo, 'job-made.txt'))).toBe(true);
    // The bus part ran before the CLI exited.
    expect(busEvents(w.bus).some((e) => e.event === 'task_progress' && e.task === 'T-job' && e.agent === 'claude-job-1')).toBe(true);
    expect(busEvents(w.bus).some((e) => e.event === 'session_end' && e.session === session)).toBe(true);
    await eventually(() => w.relay.live().some((e) => e.session === session && e.kind === 'end') || undefined, 20_000, 'the end event');
    const mine = w.relay.live().filter((e) => e.session === session);
    expect(mine.map((e) => `${e.kind}${e.running ? ':running' : ''}`)).toEqual(['command:running', 'command', 'idle', 'end']);
    expect(mine.every((e) => e.task === 'T-job' && e.agent === 'claude-job-1')).toBe(true);
    // Nothing was written into the checkout to get there.
    expect(fs.existsSync(path.join(w.repo, '.claude', 'settings.json'))).toBe(false);
  });
});
