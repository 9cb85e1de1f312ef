// OpenCode session end (OCEND-n) against the REAL `opencode run`, the OpenAI-compatible
// stand-in and a real relay: after the CLI exits, the bus holds `session_end` after the
// turn's checkpoint and the relay's last event of the session is its one `end`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedToolCall } from '../stand-ins/openai-chat';
import { busEvents, eventually, OPENCODE_BIN, opencodeEnv, runProcess } from './harness';
import { openCodeSession, planChat } from './opencode-script';
import { useOpenCodeWorld } from './world';

const TASK = 'T-oc-end';
const w = useOpenCodeWorld();

async function run(calls: ScriptedToolCall[]): Promise<string> {
  planChat(w.api, calls);
  const ran = await runProcess(OPENCODE_BIN, ['run', 'carry on', '--format', 'json'], {
    cwd: w.repo, env: opencodeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch' }), timeoutMs: 120_000,
  });
  expect(ran.code, ran.stderr).toBe(0);
  return openCodeSession(ran.stdout);
}

const endsOnBus = (session: string) => busEvents(w.bus).filter((e) => e.event === 'session_end' && (e as { session?: string }).session === session);
const liveOf = (session: string) => w.relay.live().filter((e) => e.session === session);

describe('opencode session end', () => {
  it('OCEND-1 OCEND-2: after `opencode run` exits, session_end is on the bus after the checkpoint and `end` is the last live event, once per session', { timeout: 300_000 }, async () => {
    // The mkdir needs a person and no phone is paired: refused, so its call is closed as failed
    // by the turn-end hook seconds after idle (LIVE-EMIT-5) — and end must still come after it.
    const first = await run([
      { name: 'bash', arguments: { command: 'touch oc-end-1.txt', description: 'make a file' } },
      { name: 'bash', arguments: { command: 'mkdir oc-end-denied', description: 'make a dir' } },
    ]);
    expect(fs.existsSync(path.join(w.repo, 'oc-end-denied'))).toBe(false);
    expect(fs.existsSync(path.join(w.repo, 'oc-end-1.txt'))).toBe(true);
    await eventually(() => endsOnBus(first).length > 0 || undefined, 30_000, 'session_end on the bus');
    await eventually(() => liveOf(first).some((e) => e.kind === 'end') || undefined, 30_000, 'the end live event');

    // Bus order: the turn's checkpoint, then session_end.
    const events = busEvents(w.bus);
    const checkpoint = events.findIndex((e) => e.event === 'task_progress' && e.task === TASK);
    const end = events.findIndex((e) => e.event === 'session_end' && (e as { session?: string }).session === first);
    expect(checkpoint).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(checkpoint);
    expect(events[end]).toMatchObject({ task: TASK });
    expect((events[end] as { files_changed?: number }).files_changed).toBeGreaterThanOrEqual(1); // oc-end-1.txt at least

    // A second run (a new session) in the same repo: by the time its end arrived, a duplicate
    // end of the first session would have too. Each session ends exactly once, and last.
    const second = await run([]);
    expect(second).not.toBe(first);
    await eventually(() => endsOnBus(second).length > 0 || undefined, 30_000, 'the second session_end');
    await eventually(() => liveOf(second).some((e) => e.kind === 'end') || undefined, 30_000, 'the second end live event');
    for (const session of [first, second]) {
      expect(endsOnBus(session)).toHaveLength(1);
      const kinds = liveOf(session).map((e) => (e.running ? `${e.kind}:running` : e.kind));
      expect(kinds.filter((k) => k === 'end')).toHaveLength(1);
      expect(kinds.at(-1)).toBe('end');
      expect(kinds).toContain('idle');
      const seqs = liveOf(session).flatMap((e) => (e.seq === undefined ? [] : [e.seq]));
      expect(seqs.at(-1)).toBe(Math.max(...seqs));
    }
    expect(liveOf(first).map((e) => (e.running ? `${e.kind}:running` : e.kind))).toEqual(['command:running', 'command', 'command:running', 'idle', 'command', 'end']);
    expect(liveOf(first).filter((e) => e.kind === 'command' && !e.running).map((e) => e.ok)).toEqual([true, false]);
  });
});
