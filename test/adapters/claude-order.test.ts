// Order (ORDER-1..3) against the REAL Claude Code CLI, the Messages API stand-in and a real
// relay: 20 fast turns, each changing the work and with one denied call. When `claude -p`
// exits the turn's checkpoint and session_end are already on the bus, in that order; the
// relay and the task timeline show every live event in the order it happened.
import { describe, expect, it } from 'vitest';
import { busItems, mergeTimeline } from '../../app/task/timeline';
import { readEvents } from '../../bus/event-log';
import { planTurn } from './claude-script';
import { CLAUDE_BIN, claudeEnv, eventually, runProcess } from './harness';
import { useClaudeWorld } from './world';

const TASK = 'T-order-1';
const TURNS = 20;
const w = useClaudeWorld();

/** A label per timeline row, enough to check order: bus event name or live kind+command. */
function label(item: ReturnType<typeof mergeTimeline>['items'][number]): string {
  return item.kind === 'bus' ? `bus:${item.event.event}` : `live:${item.event.kind}${item.event.cmd ? `:${item.event.cmd}` : ''}${item.event.ok === false ? ':failed' : ''}`;
}

describe('claude hook order', () => {
  it(`ORDER-1 ORDER-2 ORDER-3: ${TURNS} fast turns: checkpoint then session_end on the bus when claude exits; live events and the timeline in the order they happened`, async () => {
    for (let i = 0; i < TURNS; i++) {
      const touch = `touch order-${i}.txt`;
      const denied = `mkdir denied-${i}`;
      planTurn(w.api, [{ name: 'Bash', input: { command: touch } }, { name: 'Bash', input: { command: denied } }]);
      const ran = await runProcess(CLAUDE_BIN, ['-p', `turn ${i}`, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash(touch:*)'], {
        cwd: w.repo, env: claudeEnv(w.h, w.api.url, { AGENTS_TASK_ID: TASK, AGENT_COMMANDS: 'touch' }), // no phone is paired: the policy itself allows touch (GUARD-6)
      });
      expect(ran.code, ran.stderr).toBe(0);
      const session = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((o) => o.type === 'system').session_id as string;

      // The bus, read the moment the CLI is gone: this turn's checkpoint, then its session_end.
      const entries = readEvents(w.bus).events;
      const progress = entries.filter((e) => e.event === 'task_progress' && e.task === TASK);
      expect(progress, `turn ${i}: one checkpoint per changing turn`).toHaveLength(i + 1);
      expect(String(progress.at(-1)!.note)).toContain(`${i + 1} file${i === 0 ? '' : 's'} changed`);
      const lastProgress = entries.lastIndexOf(progress.at(-1)!);
      const end = entries.findIndex((e) => e.event === 'session_end' && e.session === session);
      expect(end, `turn ${i}: session_end is on the bus`).toBeGreaterThan(lastProgress);

      // Live: the relay got them in order (the poster posts one after the other) and keeps them in order.
      await eventually(() => w.relay.live().some((e) => e.session === session && e.kind === 'end') || undefined, 20_000, `turn ${i}: the end event`);
      const expected = [`command:${touch}:running`, `command:${touch}`, `command:${denied}:running`, `command:${denied}:failed`, 'idle', 'end'];
      const show = (e: { kind: string; cmd?: string; running?: boolean; ok?: boolean }) => `${e.kind}${e.cmd ? `:${e.cmd}` : ''}${e.running ? ':running' : ''}${e.ok === false ? ':failed' : ''}`;
      // REPORT-1: a relay that answers a Stop after the hook gave up on it (2 s, a loaded machine) may
      // also get the spooled record, so only that turn's idle and its session_end may then show twice, one after the other.
      const idleOnce = (xs: string[]) => xs.filter((x, k) => !(k > 0 && x === xs[k - 1] && /(^|:)(idle|session_end)$/.test(x)));
      expect(idleOnce(w.relay.live().filter((e) => e.session === session).map(show)), `turn ${i}: arrival order`).toEqual(expected);
      const stored = w.relay.relay.services.live.recent(session);
      expect(idleOnce(stored.map((s) => show(s.event))), `turn ${i}: stored order`).toEqual(expected);
      const seqs = stored.map((s) => s.event.seq!);
      expect(seqs.every((s, k) => Number.isInteger(s) && (k === 0 || s > seqs[k - 1]!)), `turn ${i}: seq rises`).toBe(true);

      // The phone's timeline: tool call, checkpoint, idle, session_end, end.
      const timeline = mergeTimeline(busItems(entries.map((event) => ({ event }))), [], { [session]: stored }, TASK).items
        .filter((item) => item.kind === 'live' ? item.event.session === session : (item.event.event === 'session_end' ? item.event.session === session : item.event === progress.at(-1)))
        .map(label);
      expect(idleOnce(timeline), `turn ${i}: timeline order`).toEqual([`live:command:${touch}`, `live:command:${denied}:failed`, 'bus:task_progress', 'live:idle', 'bus:session_end', 'live:end']);
    }
  }, 600_000);
});
