// The task timeline as one list (REVIEW-8): bus events from the read, new ones
// from the store without duplicates, live events for the task; the newest
// running live event is returned apart as the live line. Pure, unit-tested.
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';

export type TimelineItem =
  | { kind: 'bus'; key: string; ts: string; event: AnyBusEvent; cursor?: { offset: number; epoch: string } }
  | { kind: 'live'; key: string; ts: string; event: LiveEvent };

export interface BusEntryLike { cursor?: { offset: number; epoch: string }; event: AnyBusEvent }

export function busItems(entries: BusEntryLike[]): TimelineItem[] {
  return entries.map((e, i) => ({ kind: 'bus', key: e.cursor ? `b${e.cursor.epoch}:${e.cursor.offset}` : `b${i}`, ts: e.event.ts, event: e.event, cursor: e.cursor }));
}

/** One field the relay cut (LIMIT-2): its name and its whole size in UTF-8 bytes. */
export interface CutField { field: string; bytes: number }

/**
 * The fields of a bus event the relay showed cut (its `truncated` map, LIMIT-2), in
 * the event's own field order. Anything malformed in the map (not a count, a field
 * the event does not carry as text) is left out: only a real cut offers "Show all".
 */
export function cutFields(event: AnyBusEvent): CutField[] {
  const map = (event as { truncated?: unknown }).truncated;
  if (!map || typeof map !== 'object' || Array.isArray(map)) return [];
  const out: CutField[] = [];
  for (const [field, bytes] of Object.entries(map as Record<string, unknown>)) {
    if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0) continue;
    if (typeof (event as Record<string, unknown>)[field] !== 'string') continue;
    out.push({ field, bytes });
  }
  return out;
}

/** "300 KB" for the whole size of what "Show all" loads (KB = 1,024 bytes; never "0 KB"). */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
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
