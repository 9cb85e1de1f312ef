// The home's tail of member events (FLEETR-3): what it keeps, what it drops as a
// duplicate, and which device cursors it can still answer with events.
import { describe, expect, it } from 'vitest';
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';
import { FleetWelcome } from '../../protocol/wire/fleet';
import type { TaskSummary } from '../../protocol/wire/views';
import { MEMBER_TAIL_BYTES, MEMBER_TAIL_EVENTS, MEMBER_TAIL_TOTAL_BYTES, MemberTails } from '../../relay/fleet/resume';

const label = 'a1b2c3d4.repo-0123abcd';
const epoch = '66:1234';
const LINE = 100;

function snapshot(offset: number, extra: Partial<ServerFrameOf<'repo.snapshot'>> = {}): ServerFrameOf<'repo.snapshot'> {
  return {
    type: 'repo.snapshot', repo: { id: label, name: 'laptop/repo', path: '/src/repo', demo: false }, tasks: [], cursor: { offset, epoch },
    pages: 0, done: { total: 0, sent: 0 }, at: new Date(0).toISOString(), ...extra,
  };
}

/** Events number `from`..`to-1`, each one LINE-byte line of the member's log. */
function events(from: number, to: number): ServerFrameOf<'bus.events'> {
  return {
    type: 'bus.events', repo: label, tasks: [],
    events: Array.from({ length: to - from }, (_, k) => ({ cursor: { offset: (from + k + 1) * LINE, epoch }, event: { ts: 't', event: 'task_progress', task: 'T-1', note: `n ${from + k}` } })),
  };
}

function replayed(tails: MemberTails, offset: number, ep = epoch): { notes: string[]; resync: boolean | undefined } {
  const sent: ServerFrame[] = [];
  tails.replay(snapshot(0), new Map<string, TaskSummary>(), { offset, epoch: ep }, (f) => sent.push(f));
  const notes = sent.flatMap((f) => (f.type === 'bus.events' ? f.events.map((e) => e.event.note as string) : []));
  const snap = sent.find((f): f is ServerFrameOf<'repo.snapshot'> => f.type === 'repo.snapshot')!;
  return { notes, resync: snap.resync };
}

describe('fleet: the home tail of member events', () => {
  it('FLEETR-3: events at or before the home cursor are dropped as duplicates; the welcome carries the cursor the member continues from', () => {
    const tails = new MemberTails();
    tails.take(snapshot(0));
    expect(tails.take(events(0, 10))).toMatchObject({ events: { length: 10 } });
    // A member that resends 5..14 after a dropped link: only 10..14 go on.
    const again = tails.take(events(5, 15)) as ServerFrameOf<'bus.events'>;
    expect(again.events.map((e) => e.event.note)).toEqual(['n 10', 'n 11', 'n 12', 'n 13', 'n 14']);
    // A frame of nothing but duplicates (and no task summaries) is not sent at all.
    expect(tails.take(events(0, 15))).toBeUndefined();
    const cursors = tails.cursors([[label, 'repo-0123abcd']]);
    expect(cursors).toEqual({ 'repo-0123abcd': { offset: 15 * LINE, epoch } });
    expect(FleetWelcome.safeParse({ type: 'fleet.welcome', machine: 'm-0123456789abcdef', name: 'laptop', sig: 'A'.repeat(86), resume: cursors }).success).toBe(true);
    expect(FleetWelcome.safeParse({ type: 'fleet.welcome', machine: 'm-0123456789abcdef', name: 'laptop', sig: 'A'.repeat(86), resume: { '../x': { offset: 1, epoch } } }).success).toBe(false);
  });

  it(`FLEETR-3: a device cursor inside the tail gets the events after it; one older than the kept ${MEMBER_TAIL_EVENTS} events, of another epoch, ahead of the home, or not at an event gets a resync snapshot`, () => {
    const tails = new MemberTails();
    tails.take(snapshot(0));
    const total = MEMBER_TAIL_EVENTS + 700;
    for (let from = 0; from < total; from += 100) tails.take(events(from, from + 100));
    const last = replayed(tails, (total - 3) * LINE);
    expect(last).toEqual({ notes: [`n ${total - 3}`, `n ${total - 2}`, `n ${total - 1}`], resync: undefined });
    expect(replayed(tails, total * LINE)).toEqual({ notes: [], resync: undefined });
    expect(replayed(tails, LINE).resync).toBe(true); // dropped from the tail long ago
    expect(replayed(tails, LINE).notes).toEqual([]);
    expect(replayed(tails, (total - 3) * LINE, '1:1').resync).toBe(true);
    expect(replayed(tails, (total + 1) * LINE).resync).toBe(true);
    expect(replayed(tails, (total - 3) * LINE + 7).resync).toBe(true);
    expect(tails.keptBytes()).toBeLessThanOrEqual(MEMBER_TAIL_EVENTS * LINE);
  });

  it('FLEETR-3: a snapshot that does not continue where the tail ends (a resync, a jump) starts the tail over at its cursor', () => {
    const tails = new MemberTails();
    tails.take(snapshot(0));
    tails.take(events(0, 10));
    tails.take(snapshot(10 * LINE)); // continues: the tail stays
    expect(replayed(tails, 5 * LINE).notes).toHaveLength(5);
    tails.take(snapshot(12 * LINE)); // events 10..11 never came as events
    expect(replayed(tails, 5 * LINE).resync).toBe(true);
    expect(replayed(tails, 12 * LINE)).toEqual({ notes: [], resync: undefined });
    tails.take({ type: 'repo.removed', repo: label });
    expect(tails.keptBytes()).toBe(0);
    expect(tails.cursors([[label, 'repo-0123abcd']])).toEqual({});
  });

  it('FLEETR-3: a member whose offsets claim tiny lines for big events cannot grow the tail past MEMBER_TAIL_BYTES', () => {
    const tails = new MemberTails();
    tails.take(snapshot(0));
    const note = 'x'.repeat(10_000);
    for (let n = 0; n < 500; n++) {
      tails.take({ type: 'bus.events', repo: label, tasks: [], events: [{ cursor: { offset: n + 1, epoch }, event: { ts: 't', event: 'task_progress', task: 'T-1', note } }] });
    }
    expect(tails.keptBytes()).toBeLessThanOrEqual(MEMBER_TAIL_BYTES);
    expect(tails.keptBytes()).toBeGreaterThan(MEMBER_TAIL_BYTES / 2);
    expect(tails.cursors([[label, 'repo-0123abcd']])).toEqual({ 'repo-0123abcd': { offset: 500, epoch } });
  });

  it('FLEETR-4: a member filling many small tails of its own gives up its own history when all tails are over MEMBER_TAIL_TOTAL_BYTES, not another machine\'s', () => {
    const tails = new MemberTails();
    const event = (repo: string, n: number, note: string) => ({ type: 'bus.events' as const, repo, tasks: [], events: [{ cursor: { offset: n, epoch }, event: { ts: 't', event: 'task_progress', task: 'T-1', note } }] });
    // Another machine's repo keeps 400 KiB of events a device may resume from.
    tails.take(snapshot(0));
    for (let n = 1; n <= 400; n++) tails.take(event(label, n, 'x'.repeat(1000)));
    const before = replayed(tails, 0).notes.length;
    expect(before).toBe(400);
    // A hostile member fills 1000 repos of its own, each tail smaller than that one, past the total.
    const note = 'y'.repeat(1000);
    for (let r = 0; r < 1000; r++) {
      const repo = `99999999.flood${r}-0123abcd`;
      tails.take({ ...snapshot(0), repo: { id: repo, name: 'rogue/flood', path: '/x', demo: false } });
      for (let n = 1; n <= 20; n++) tails.take(event(repo, n, note));
    }
    expect(tails.keptBytes()).toBeLessThanOrEqual(MEMBER_TAIL_TOTAL_BYTES);
    expect(replayed(tails, 0)).toEqual({ notes: Array.from({ length: 400 }, () => 'x'.repeat(1000)), resync: undefined });
  });
});
