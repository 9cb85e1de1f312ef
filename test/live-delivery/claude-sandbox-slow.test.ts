// Live events on a slow relay from a SANDBOXED Claude Code job (LIVE-DELIVER-n, SANDBOX-5): the
// REAL Claude Code through the claude adapter's `run` inside the real OS sandbox, as the relay
// starts every job, its reports going through a loopback proxy that answers only after 1 s.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTurn } from '../adapters/claude-script';
import { adapterBin, CLAUDE_BIN, claudeEnv, eventually, runSandboxed } from '../adapters/harness';
import { useClaudeWorld } from '../adapters/world';
import { slowRelay } from './slow-relay';

const TASK = 'T-boxed-slow';
const w = useClaudeWorld({ wired: false, branch: `agent/${TASK}` });
const kindsOf = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.kind}:running` : e.kind));

describe('a sandboxed Claude Code job on a slow relay', () => {
  it('LIVE-DELIVER-4: with the relay answering reports after 1 s, every event of a sandboxed Claude Code job arrives once, in order, though the job ended first', { timeout: 240_000 }, async () => {
    const slow = await slowRelay(w.relay.relay.url, { delayMs: 1000 });
    const token = fs.readFileSync(path.join(w.h.commandrHome, 'hook-token'), 'utf8').trim();
    planTurn(w.api, [{ name: 'Bash', input: { command: 'touch boxed-a.txt' } }], 'job finished');
    const ran = await runSandboxed(adapterBin('claude', 'run'), [], {
      cwd: w.repo, repo: w.repo, dataDir: w.h.commandrHome, timeoutMs: 180_000,
      env: claudeEnv(w.h, w.api.url, {
        COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: w.repo, AGENT_PROMPT: 'make the file', AGENT_MODE: 'work', AGENT_COMMANDS: 'touch',
        COMMANDR_TASK: TASK, COMMANDR_AGENT_ID: 'claude-boxed-1', COMMANDR_URL: slow.url, COMMANDR_HOOK_TOKEN: token,
      }),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const session = /^SESSION: (\S+)$/m.exec(ran.stdout)![1]!;
    const expected = ['command:running', 'command', 'idle', 'end'];
    await eventually(() => kindsOf(session).length >= expected.length || undefined, 60_000, () => `all ${expected.length} events (have ${kindsOf(session).join(',')})`);
    const kept = w.relay.relay.services.live.recent(session).map((s) => s.event);
    expect(kept.map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(expected);
  });
});
