// Live events on a slow relay, Claude Code (LIVE-DELIVER-n): the REAL Claude Code and its real
// reporting hooks, through a real loopback proxy that answers every report and live event only
// after 1 s, with two CPU hogs beside it; and the spool's poster against a relay that cuts its
// first posts off. Every event arrives, once, in order.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTurn } from '../adapters/claude-script';
import { CLAUDE_BIN, claudeEnv, eventually, ROOT, runProcess } from '../adapters/harness';
import { useClaudeWorld } from '../adapters/world';
import { cpuHogs, slowRelay } from './slow-relay';

const TASK = 'T-claude-slow';
const HOOKS = path.join(ROOT, 'adapters', 'claude', 'hooks');
const w = useClaudeWorld();
const kindsOf = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.kind}:running` : e.kind));

describe('Claude Code live events on a slow relay', () => {
  it('LIVE-DELIVER-1: with the relay answering reports and live events after 1 s and two CPU hogs, every event of a real Claude Code session arrives once, in order', { timeout: 240_000 }, async () => {
    const slow = await slowRelay(w.relay.relay.url, { delayMs: 1000 });
    const hogs = cpuHogs(Number(process.env.LIVE_HOGS ?? 2));
    try {
      planTurn(w.api, [{ name: 'Bash', input: { command: 'touch slow-a.txt' } }, { name: 'Bash', input: { command: 'touch slow-b.txt' } }]);
      const ran = await runProcess(CLAUDE_BIN, ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
        cwd: w.repo, env: claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch', COMMANDR_URL: slow.url }), timeoutMs: 180_000,
      });
      expect(ran.code, ran.stderr).toBe(0);
      const session = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((o) => o.type === 'system').session_id as string;
      const expected = ['command:running', 'command', 'command:running', 'command', 'idle', 'end'];
      await eventually(() => kindsOf(session).length >= expected.length || undefined, 120_000, () => `all ${expected.length} events (have ${kindsOf(session).join(',')})`);
      await eventually(() => kindsOf(session).includes('end') || undefined, 120_000, 'the end event');
      const arrived = JSON.stringify(w.relay.live().filter((e) => e.session === session));
      // Each once (a call's start comes through the permission hook, its end through the report: two
      // channels, so they may arrive crosswise); the relay's view, what a phone is sent, in the order it happened.
      expect([...kindsOf(session)].sort(), arrived).toEqual([...expected].sort());
      const kept = w.relay.relay.services.live.recent(session).map((s) => s.event);
      expect(kept.map((e) => (e.running ? `${e.kind}:running` : e.kind)), arrived).toEqual(expected);
    } finally {
      hogs.stop();
    }
  });

  it('LIVE-DELIVER-2: the poster removes a spooled record only once the relay acknowledged it: posts cut off are sent again, in order', { timeout: 60_000 }, async () => {
    const cutting = await slowRelay(w.relay.relay.url, { delayMs: 0, resets: 3 });
    const env = { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome, AGENTS_TASK_ID: TASK, COMMANDR_URL: cutting.url, COMMANDR_REPORT_SPOOL: '1' };
    const session = `s-cut-${process.pid}`;
    for (const [i, command] of ['echo one', 'echo two'].entries()) {
      const payload = JSON.stringify({ session_id: session, cwd: w.repo, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `tu-${i}`, tool_response: { stdout: 'x' } });
      const ran = await runProcess(path.join(HOOKS, 'spool'), ['PostToolUse'], { cwd: w.repo, env, input: payload });
      expect(ran.code).toBe(0);
    }
    await eventually(() => kindsOf(session).length >= 2 || undefined, 45_000, 'both spooled events');
    expect(w.relay.live().filter((e) => e.session === session).map((e) => e.cmd)).toEqual(['echo one', 'echo two']);
    expect(cutting.seen()).toBeGreaterThanOrEqual(5); // three cut off, then the two delivered
    const spool = path.join(w.h.commandrHome, 'hook-state', 'spool');
    await eventually(() => fs.readdirSync(spool).every((f) => !/^\d/.test(f)) || undefined, 15_000, 'the spool empty');
  });
});
