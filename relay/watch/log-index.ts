// The relay's follower of one `events.jsonl`: consumed byte offset, log identity
// (epoch) and per-task line ranges, so a resume or a timeline reads only the bytes it needs.
import { eventsPath } from '../../bus/layout';
import { type PlacedEvent, isLineBoundary, logIdentity, readEventLines, readEventRange } from '../../bus/tail';
import type { SkippedLine } from '../../bus/event-log';
import type { Cursor } from '../../protocol/wire/views';

export type TailResult =
  | { kind: 'events'; events: PlacedEvent[]; skipped: SkippedLine[] }
  /** The log was truncated or replaced: the follower must be rebuilt from offset 0. */
  | { kind: 'reset'; reason: string };

export class LogIndex {
  readonly file: string;
  /** `${dev}:${ino}` of the log being followed; '' while no log exists. */
  epoch = '';
  /** Bytes consumed: just past the last complete line. A torn tail waits past here. */
  offset = 0;
  count = 0;
  private readonly byTask = new Map<string, number[]>();

  constructor(bus: string) {
    this.file = eventsPath(bus);
  }

  cursor(): Cursor {
    return { offset: this.offset, epoch: this.epoch };
  }

  /** Reads whatever complete lines were appended since the last call. */
  poll(): TailResult {
    const id = logIdentity(this.file);
    if (!id) return this.epoch === '' ? { kind: 'events', events: [], skipped: [] } : { kind: 'reset', reason: 'the log was removed' };
    if (this.epoch !== '' && id.epoch !== this.epoch) return { kind: 'reset', reason: 'the log was replaced' };
    if (id.size < this.offset) return { kind: 'reset', reason: `the log shrank to ${id.size} bytes below offset ${this.offset}` };
    this.epoch = id.epoch;
    if (id.size === this.offset) return { kind: 'events', events: [], skipped: [] };
    const batch = readEventRange(this.file, this.offset, id.size);
    for (const placed of batch.events) this.index(placed);
    this.offset = batch.next;
    return { kind: 'events', events: batch.events, skipped: batch.skipped };
  }

  private index(placed: PlacedEvent): void {
    this.count++;
    const task = taskOf(placed.event);
    if (task === undefined) return;
    let ranges = this.byTask.get(task);
    if (!ranges) this.byTask.set(task, (ranges = []));
    ranges.push(placed.start, placed.end);
  }

  /** Whether a client's cursor names a line boundary of this very log at or before our offset. */
  accepts(cursor: Cursor): boolean {
    if (cursor.epoch !== this.epoch || cursor.offset > this.offset) return false;
    if (this.epoch === '') return cursor.offset === 0;
    return isLineBoundary(this.file, cursor.offset);
  }

  /** The events after `cursor` up to what has been consumed (never past it: no duplicates later). */
  since(cursor: Cursor): PlacedEvent[] {
    return readEventRange(this.file, cursor.offset, this.offset).events;
  }

  /** Where the task's line that ends at `end` starts, if there is one (LIMIT-2 `task.note`). */
  lineEndingAt(task: string, end: number): number | undefined {
    const flat = this.byTask.get(task) ?? [];
    for (let i = flat.length - 1; i > 0; i -= 2) if (flat[i] === end) return flat[i - 1];
    return undefined;
  }

  /** Every event of one task, in log order. */
  timeline(task: string): PlacedEvent[] {
    const flat = this.byTask.get(task) ?? [];
    const ranges: [number, number][] = [];
    for (let i = 0; i < flat.length; i += 2) ranges.push([flat[i]!, flat[i + 1]!]);
    return readEventLines(this.file, coalesce(ranges));
  }
}

/** The task an event is about, when it names one. */
export function taskOf(event: Record<string, unknown>): string | undefined {
  return typeof event.task === 'string' ? event.task : undefined;
}

/** Merges touching ranges so adjacent lines are read in one go. */
function coalesce(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const range of ranges) {
    const last = out[out.length - 1];
    if (last && last[1] === range[0]) last[1] = range[1];
    else out.push([range[0], range[1]]);
  }
  return out;
}
