// Live events on a slow relay, OpenCode (LIVE-DELIVER-n): the REAL `opencode run` against the
// chat stand-in, its plugin's hooks posting through a real loopback proxy that answers every live
// event only after 1 s, with two CPU hogs beside it. Every event arrives, once, in order.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedToolCall } from '../stand-ins/openai-chat';
import { eventually, OPENCODE_BIN, opencodeEnv, ROOT, runProcess } from '../adapters/harness';
import { openCodeSession, planChat } from '../adapters/opencode-script';
import { useOpenCodeWorld } from '../adapters/world';
import { cpuHogs, slowRelay } from './slow-relay';

const TASK = 'T-oc-slow';
const w = useOpenCodeWorld();
const kindsOf = (session: string) => w.relay.live().filter((e) => e.session === session).map((e) => (e.running ? `${e.kind}:running` : e.kind));

async function run(calls: ScriptedToolCall[], url: string | undefined): Promise<string> {
  planChat(w.api, calls);
  const ran = await runProcess(OPENCODE_BIN, ['run', 'carry on', '--format', 'json'], {
    cwd: w.repo, env: opencodeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch', ...(url ? { COMMANDR_URL: url } : {}) }), timeoutMs: Number(process.env.LIVE_OC_TIMEOUT ?? 180_000),
  });
  expect(ran.code, `requests ${w.api.chatRequests().length}; stdout ${ran.stdout.slice(-1500)}; stderr ${ran.stderr.slice(-1500)}`).toBe(0);
  return openCodeSession(ran.stdout);
}

describe('OpenCode live events on a slow relay', () => {
  it('LIVE-DELIVER-1 LIVE-DELIVER-2: with the relay answering live events after 1 s and two CPU hogs, every event of a real OpenCode session arrives once, in the order it happened', { timeout: 300_000 }, async () => {
    const slow = await slowRelay(w.relay.relay.url, { delayMs: Number(process.env.LIVE_DELAY ?? 1000) });
    const hogs = cpuHogs(Number(process.env.LIVE_HOGS ?? 2));
    try {
      const session = await run([
        { name: 'bash', arguments: { command: 'touch slow-1.txt', description: 'first file' } },
        { name: 'bash', arguments: { command: 'touch slow-2.txt', description: 'second file' } },
        { name: 'bash', arguments: { command: 'touch slow-3.txt', description: 'third file' } },
      ], process.env.LIVE_DIRECT ? undefined : slow.url);
      expect(fs.existsSync(path.join(w.repo, 'slow-3.txt'))).toBe(true);
      const expected = ['command:running', 'command', 'command:running', 'command', 'command:running', 'command', 'idle', 'end'];
      await eventually(() => kindsOf(session).length >= expected.length || undefined, 120_000, () => `all ${expected.length} events (have ${kindsOf(session).join(',')})`);
      expect(kindsOf(session)).toEqual(expected);
      // The relay's view of the session (what a phone is sent) is in the order it happened.
      const kept = w.relay.relay.services.live.recent(session).map((s) => s.event);
      expect(kept.map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(expected);
      const seqs = kept.map((e) => e.seq!);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    } finally {
      hogs.stop();
    }
  });

  it('LIVE-DELIVER-3: no relay-down mark (left by a Claude Code report that timed out) makes an OpenCode hook skip its event', { timeout: 60_000 }, async () => {
    const state = path.join(w.h.commandrHome, 'hook-state');
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(state, 'relay-down'), `${Math.floor(Date.now() / 1000)}\n`);
    const hook = path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook');
    const session = `s-marked-${process.pid}`;
    const data = { session, cwd: w.repo, call: 'c-1', tool: 'bash', args: { command: 'ls' }, at: Date.now() * 1000 };
    const ran = await runProcess(hook, ['tool-start'], { cwd: w.repo, env: { PATH: process.env.PATH, HOME: w.h.home, COMMANDR_HOME: w.h.commandrHome }, input: JSON.stringify(data) });
    expect(ran.code).toBe(0);
    await eventually(() => kindsOf(session).length > 0 || undefined, 30_000, 'the event despite the mark');
    expect(kindsOf(session)).toEqual(['command:running']);
  });
});
