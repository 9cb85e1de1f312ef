// Detached start/end hooks keep a tool call's live events in order (HOOK-7), and the
// Claude Code failure payload yields the exit status a check is judged by (CHECKS-4).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolOutcome } from '../../adapters/claude/lib/payload';
import { awaitStarted, markStarted, pruneMarkers, STALE_MARKER_MS, sweepUnfinished } from '../../adapters/lib/tool-order';
import { cleanup, makeHome } from './harness';

afterAll(cleanup);

describe('tool event order', () => {
  it('HOOK-7: the end hook waits for the start marker (bounded), consumes it, and stale markers are pruned', async () => {
    const { commandrHome } = makeHome();
    const env = { COMMANDR_HOME: commandrHome };
    const started = Date.now();
    await awaitStarted(env, 's', 'call-1', 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const waiting = awaitStarted(env, 's', 'call-2', 5000);
    markStarted(env, 's', 'call-2');
    const t = Date.now();
    await waiting;
    expect(Date.now() - t).toBeLessThan(1000);
    const dir = path.join(commandrHome, 'hook-state', 'calls');
    expect(fs.readdirSync(dir)).toHaveLength(0);
    markStarted(env, 's', 'never-ends');
    pruneMarkers(env, Date.now());
    expect(fs.readdirSync(dir)).toHaveLength(1);
    pruneMarkers(env, Date.now() + STALE_MARKER_MS + 1000);
    expect(fs.readdirSync(dir)).toHaveLength(0);
  });

  it('LIVE-EMIT-5: turn end claims the session’s unclaimed markers once; claimed ones and other sessions are left alone', async () => {
    const { commandrHome } = makeHome();
    const env = { COMMANDR_HOME: commandrHome };
    const ev = (cmd: string) => ({ v: 1 as const, session: 's', kind: 'command' as const, summary: cmd, cmd, ok: false });
    markStarted(env, 's', 'a', ev('a'));
    markStarted(env, 's', 'b', ev('b'));
    markStarted(env, 'other', 'c', { ...ev('c'), session: 'other' });
    await awaitStarted(env, 's', 'b');
    expect((await sweepUnfinished(env, 's', 10)).map((e) => e.cmd)).toEqual(['a']);
    expect(await sweepUnfinished(env, 's', 10)).toEqual([]);
    expect((await sweepUnfinished(env, 'other', 10)).map((e) => e.cmd)).toEqual(['c']);
    // A call of the next turn, started while the sweep waits, is left to its own end hook.
    const sweeping = sweepUnfinished(env, 's', 300);
    await new Promise((r) => setTimeout(r, 100)); // a time gap is the thing under test, not a sync
    markStarted(env, 's', 'next-turn', ev('next'));
    expect(await sweeping).toEqual([]);
  });

  it('CHECKS-4: a failed shell call reported as PostToolUseFailure carries its exit status', () => {
    const outcome = toolOutcome({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', error: 'Exit code 3', tool_input: { command: 'npm test' } });
    expect(outcome).toMatchObject({ exit: 3, failed: true });
    expect(toolOutcome({ tool_response: { stdout: '2 passed', stderr: '', interrupted: false } })).toMatchObject({ output: '2 passed', failed: false });
  });
});
