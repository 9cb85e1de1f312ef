// The task timeline as one list (REVIEW-8): bus events from the read, new ones
// from the store without duplicates, live events for the task; the newest
// running live event is returned apart as the live line. Pure, unit-tested.
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';

export type TimelineItem =
  | { kind: 'bus'; key: string; ts: string; event: AnyBusEvent }
  | { kind: 'live'; key: string; ts: string; event: LiveEvent };

export interface BusEntryLike { cursor?: { offset: number; epoch: string }; event: AnyBusEvent }

export function busItems(entries: BusEntryLike[]): TimelineItem[] {
  return entries.map((e, i) => ({ kind: 'bus', key: e.cursor ? `b${e.cursor.epoch}:${e.cursor.offset}` : `b${i}`, ts: e.event.ts, event: e.event }));
}

/** By time, then by the emitter's `seq` (microseconds), which is finer than the ISO millisecond. */
function happenedOrder(a: { at: string; event: LiveEvent }, b: { at: string; event: LiveEvent }): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return (a.event.seq ?? 0) - (b.event.seq ?? 0);
}

export function mergeTimeline(
  initial: TimelineItem[], recent: BusEntryLike[], live: Record<string, { at: string; event: LiveEvent }[]>, task: string,
): { items: TimelineItem[]; running: LiveEvent | null } {
  const seen = new Set(initial.map((i) => i.key));
  const fromStore = busItems(recent.filter((e) => e.event.task === task)).filter((i) => !seen.has(i.key));
  const liveItems: TimelineItem[] = [];
  let running: { at: string; event: LiveEvent } | null = null;
  for (const [session, arrived] of Object.entries(live)) {
    // Frames arrive in the order they were posted; a session's events are shown in the order they happened (ORDER-3).
    const list = [...arrived].sort(happenedOrder);
    list.forEach((entry, i) => {
      if (entry.event.task !== task) return;
      liveItems.push({ kind: 'live', key: `l${session}:${i}:${entry.at}`, ts: entry.at, event: entry.event });
    });
    const last = list.filter((e) => e.event.task === task).at(-1);
    if (last?.event.running && (!running || last.at > running.at)) running = last;
  }
  const items = [...initial, ...fromStore, ...liveItems.filter((i) => !(i.kind === 'live' && i.event.running))]
    .sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.kind === 'live' && b.kind === 'live' ? (a.event.seq ?? 0) - (b.event.seq ?? 0) : 0));
  return { items, running: running?.event ?? null };
}
