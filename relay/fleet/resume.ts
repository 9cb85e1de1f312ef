// Resume across the fleet link, event-exact (FLEETR-n). The home keeps, per
// labelled member repo, the member's cursor of the last event it forwarded and a
// bounded tail of those events. On link-up it hands the member those cursors in
// `fleet.welcome` and the member answers with exactly the events after each (or a
// snapshot when the cursor no longer fits its log), then the repo's state; the
// home drops any event at or before its cursor, so nothing is sent twice. A
// device's cursor for a member repo is answered from the kept tail: the events
// after it, then the snapshot (RESUME-1), or a `resync` snapshot when the tail
// does not reach back that far.
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';
import type { Cursor, TaskSummary } from '../../protocol/wire/views';
import type { ClientInfo } from '../context';
import { eventFrames, MAX_FRAME_EVENT_BYTES, MAX_FRAME_EVENTS, pageTasks, snapshotFrames, type BusEventsFrame } from '../watch/frames';
import type { RepoHub } from '../watch/hub';

/** Most events the home keeps per member repo for devices that resume (FLEETR-3). */
export const MEMBER_TAIL_EVENTS = 2000;
/** Most bytes of event JSON kept per member repo (measured by the home, not taken from the member's offsets). */
export const MEMBER_TAIL_BYTES = 512 * 1024;
/** Most bytes of event JSON kept over all member repos together; the biggest tail is halved when over. */
export const MEMBER_TAIL_TOTAL_BYTES = 16 << 20;

type MemberBusFrame = Extract<ServerFrame, { type: 'bus.events' | 'repo.snapshot' | 'repo.tasks' | 'repo.removed' }>;
type Placed = BusEventsFrame['events'][number];

interface Tail {
  epoch: string;
  /** The offset the first kept event starts after: a device cursor here or at any kept event is resumable. */
  base: number;
  /** The member's cursor of the last event (or snapshot) the home forwarded. */
  end: number;
  events: Placed[];
  /** JSON bytes of each kept event, summed in `bytes`. */
  sizes: number[];
  bytes: number;
}

/** The home's side: one tail per labelled member repo. */
export class MemberTails {
  private readonly tails = new Map<string, Tail>();
  private total = 0;

  /**
   * Takes a relabelled member frame before it is remembered and broadcast: records
   * its events and drops those at or before the home's cursor (a member that
   * resends after a restart or a dropped link). Returns what to broadcast, if anything.
   */
  take(frame: ServerFrame): ServerFrame | undefined {
    if (frame.type === 'repo.removed') {
      this.forget(frame.repo);
      return frame;
    }
    if (frame.type === 'repo.snapshot') {
      const tail = this.tails.get(frame.repo.id);
      // The tail stays only when the snapshot continues exactly where it ends; else devices resume from here on.
      if (!tail || frame.resync || tail.epoch !== frame.cursor.epoch || tail.end !== frame.cursor.offset) this.reset(frame.repo.id, frame.cursor);
      return frame;
    }
    if (frame.type !== 'bus.events') return frame;
    if (!this.tails.has(frame.repo)) return frame;
    const fresh: Placed[] = [];
    for (const placed of frame.events) {
      const tail = this.tails.get(frame.repo)!;
      if (placed.cursor.epoch !== tail.epoch) {
        // A new log without a resync snapshot first (e.g. the first log of a repo that had none): resume from this event on.
        this.reset(frame.repo, placed.cursor);
        fresh.push(placed);
        continue;
      }
      if (placed.cursor.offset <= tail.end) continue; // already forwarded
      this.append(tail, placed);
      fresh.push(placed);
    }
    this.trim();
    if (fresh.length === frame.events.length) return frame;
    if (fresh.length === 0 && frame.tasks.length === 0) return undefined;
    return { ...frame, events: fresh };
  }

  /**
   * The member's cursor of the last event forwarded for each of `labels` (keyed by the member's own repo id): what the
   * member resumes from. `{offset: 0, epoch: ''}` says the member had no log when the home last heard of the repo, so
   * every event of a log it has now is new to the home (FLEETE-1).
   */
  cursors(labels: Array<[label: string, memberRepo: string]>): Record<string, Cursor> {
    const out: Record<string, Cursor> = {};
    for (const [label, own] of labels) {
      const tail = this.tails.get(label);
      if (tail) out[own] = { offset: tail.end, epoch: tail.epoch };
    }
    return out;
  }

  /**
   * What a subscribing device is sent for one member repo (FLEETR-2): the events after
   * its cursor when the tail reaches back to it, then the repo's state; a cursor the
   * tail cannot answer gets the state with `resync: true`.
   */
  replay(
    snapshot: ServerFrameOf<'repo.snapshot'>, tasks: Map<string, TaskSummary>, cursor: Cursor | undefined, send: (frame: ServerFrame) => void,
  ): void {
    const label = snapshot.repo.id;
    const tail = this.tails.get(label);
    const from = cursor === undefined || !tail ? undefined : after(tail, cursor);
    if (tail && from !== undefined) for (const frame of batches(label, tail, from, tasks)) send(frame);
    const [first, ...rest] = pageTasks([...tasks.values()]);
    const { resync: _resync, ...state } = snapshot;
    send({ ...state, tasks: first ?? [], pages: rest.length, ...(cursor !== undefined && from === undefined ? { resync: true } : {}) });
    for (const page of rest) send({ type: 'repo.tasks', repo: label, tasks: page });
  }

  forget(label: string): void {
    const tail = this.tails.get(label);
    if (!tail) return;
    this.total -= tail.bytes;
    this.tails.delete(label);
  }

  /** Bytes of event lines kept over all member repos (for the bench and the bound). */
  keptBytes(): number {
    return this.total;
  }

  private reset(label: string, cursor: Cursor): void {
    this.forget(label);
    this.tails.set(label, { epoch: cursor.epoch, base: cursor.offset, end: cursor.offset, events: [], sizes: [], bytes: 0 });
  }

  private append(tail: Tail, placed: Placed): void {
    // Measured here: a member's offsets could claim anything.
    const size = JSON.stringify(placed.event).length;
    tail.events.push(placed);
    tail.sizes.push(size);
    tail.bytes += size;
    this.total += size;
    tail.end = placed.cursor.offset;
    // Drops a quarter at a time, so a full tail is not shifted on every event.
    while (tail.events.length > 0 && (tail.events.length > MEMBER_TAIL_EVENTS || tail.bytes > MEMBER_TAIL_BYTES)) {
      this.drop(tail, Math.max(tail.events.length - MEMBER_TAIL_EVENTS, 1, Math.ceil(tail.events.length / 4)));
    }
  }

  /**
   * Keeps all member tails together under MEMBER_TAIL_TOTAL_BYTES by halving the biggest tail of the machine that keeps
   * the most: a member filling many tails of its own gives up its own history, not another machine's (FLEETR-4).
   */
  private trim(): void {
    while (this.total > MEMBER_TAIL_TOTAL_BYTES) {
      const kept = new Map<string, number>();
      for (const [label, tail] of this.tails) kept.set(machineOf(label), (kept.get(machineOf(label)) ?? 0) + tail.bytes);
      let top: string | undefined;
      for (const [machine, bytes] of kept) if (top === undefined || bytes > kept.get(top)!) top = machine;
      let biggest: Tail | undefined;
      for (const [label, tail] of this.tails) if (machineOf(label) === top && (!biggest || tail.bytes > biggest.bytes)) biggest = tail;
      if (!biggest || biggest.events.length === 0) return;
      this.drop(biggest, Math.ceil(biggest.events.length / 2));
    }
  }

  private drop(tail: Tail, count: number): void {
    const gone = tail.events.splice(0, count);
    const sizes = tail.sizes.splice(0, count);
    const bytes = sizes.reduce((a, b) => a + b, 0);
    tail.bytes -= bytes;
    this.total -= bytes;
    tail.base = gone.at(-1)?.cursor.offset ?? tail.base;
  }
}

/** The machine a labelled member repo belongs to: its `<8 hex>` prefix (FLEET-3). */
const machineOf = (label: string): string => label.slice(0, label.indexOf('.'));

/** Index of the first kept event after `cursor`, or undefined when the tail does not reach it. */
function after(tail: Tail, cursor: Cursor): number | undefined {
  if (cursor.epoch !== tail.epoch || cursor.offset > tail.end) return undefined;
  if (cursor.offset === tail.base) return 0;
  const at = findEnd(tail.events, cursor.offset);
  return at === undefined ? undefined : at + 1;
}

/** Binary search for the kept event whose cursor ends at `offset` (offsets only grow within an epoch). */
function findEnd(events: Placed[], offset: number): number | undefined {
  let lo = 0;
  let hi = events.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = events[mid]!.cursor.offset;
    if (at === offset) return mid;
    if (at < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Kept events as `bus.events` frames of at most MAX_FRAME_EVENTS / about MAX_FRAME_EVENT_BYTES, each with the current summaries of the tasks it touches. */
function batches(label: string, tail: Tail, from: number, tasks: Map<string, TaskSummary>): BusEventsFrame[] {
  const frames: BusEventsFrame[] = [];
  let batch: Placed[] = [];
  let touched = new Set<string>();
  let bytes = 0;
  const flush = () => {
    const summaries = [...touched].map((id) => tasks.get(id)).filter((t): t is TaskSummary => t !== undefined);
    frames.push({ type: 'bus.events', repo: label, events: batch, tasks: summaries });
    batch = [];
    touched = new Set();
    bytes = 0;
  };
  for (let k = from; k < tail.events.length; k++) {
    const placed = tail.events[k]!;
    const size = tail.sizes[k]!;
    if (batch.length > 0 && (batch.length >= MAX_FRAME_EVENTS || bytes + size > MAX_FRAME_EVENT_BYTES)) flush();
    batch.push(placed);
    bytes += size;
    if (typeof placed.event.task === 'string') touched.add(placed.event.task);
  }
  if (batch.length > 0) flush();
  return frames;
}

/** Which clients get live member frames: those whose `subscribe` already received the member repos (so nothing arrives twice). */
const FLEET_SUBSCRIBED = 'fleet.subscribed';
export const fleetSubscribed = (client: ClientInfo): boolean => client.state.get(FLEET_SUBSCRIBED) === true;
export function markFleetSubscribed(client: ClientInfo | undefined, on: boolean): void {
  if (!client) return;
  if (on) client.state.set(FLEET_SUBSCRIBED, true);
  else client.state.delete(FLEET_SUBSCRIBED);
}

/**
 * The member's side on link-up (FLEETR-1): per watched repo, the events after the
 * home's cursor and then the repo's state, or a snapshot (`resync` when the home had
 * a cursor this log cannot continue). Built in one synchronous step, so the live
 * frames that follow continue exactly where these end.
 */
export function linkUpFrames(hub: RepoHub, cursors: Record<string, Cursor> | undefined): MemberBusFrame[] {
  const out: MemberBusFrame[] = [];
  for (const repo of hub.repos()) {
    const model = hub.model(repo.id);
    if (!model) continue;
    const cursor = cursors?.[repo.id];
    // The home last heard of this repo when it had no log: any log it has now began after that, so all of it is new (FLEETE-1).
    const noLog = cursor?.epoch === '' && cursor.offset === 0;
    if (cursor !== undefined && model.log.accepts(cursor)) out.push(...eventFrames(model, model.log.since(cursor)), ...snapshotFrames(model));
    else if (noLog) out.push(...eventFrames(model, model.log.since({ offset: 0, epoch: model.log.epoch })), ...snapshotFrames(model));
    else out.push(...snapshotFrames(model, cursor !== undefined));
  }
  return out;
}
