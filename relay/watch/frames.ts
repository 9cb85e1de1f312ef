// Turning model state into wire frames: snapshots and `bus.events` batches
// (at most 500 events or about 256 KiB of event JSON per frame).
import type { PlacedEvent } from '../../bus/tail';
import type { ServerFrameOf } from '../../protocol/wire/frames';
import type { TaskSummary } from '../../protocol/wire/views';
import { taskOf } from './log-index';
import type { RepoModel } from './repo-model';

export type BusEventsFrame = ServerFrameOf<'bus.events'>;
export type RepoSnapshotFrame = ServerFrameOf<'repo.snapshot'>;

export const MAX_FRAME_EVENTS = 500;
export const MAX_FRAME_EVENT_BYTES = 256 * 1024;

export function snapshotFrame(model: RepoModel, resync = false): RepoSnapshotFrame {
  const frame: RepoSnapshotFrame = { type: 'repo.snapshot', repo: model.info, tasks: model.tasks(), cursor: model.log.cursor() };
  if (resync) frame.resync = true;
  return frame;
}

/**
 * Splits events into frames; each frame carries the current summaries of the
 * tasks its events touch, and `extra` summaries (changed without an event) ride on the last.
 */
export function eventFrames(model: RepoModel, events: PlacedEvent[], extra: TaskSummary[] = []): BusEventsFrame[] {
  const frames: BusEventsFrame[] = [];
  const epoch = model.log.epoch;
  let batch: BusEventsFrame['events'] = [];
  let bytes = 0;
  let tasks = new Set<string>();
  const flush = (): void => {
    frames.push({ type: 'bus.events', repo: model.info.id, events: batch, tasks: summaries(model, tasks) });
    batch = [];
    bytes = 0;
    tasks = new Set();
  };
  for (const placed of events) {
    const size = placed.end - placed.start;
    if (batch.length > 0 && (batch.length >= MAX_FRAME_EVENTS || bytes + size > MAX_FRAME_EVENT_BYTES)) flush();
    batch.push({ cursor: { offset: placed.end, epoch }, event: placed.event });
    bytes += size;
    const task = taskOf(placed.event);
    if (task !== undefined) tasks.add(task);
  }
  const extraIds = extra.map((t) => t.id).filter((id) => !tasks.has(id));
  if (batch.length > 0 || extraIds.length > 0) {
    for (const id of extraIds) tasks.add(id);
    flush();
  }
  return frames;
}

function summaries(model: RepoModel, tasks: Set<string>): TaskSummary[] {
  const out: TaskSummary[] = [];
  for (const id of tasks) {
    const summary = model.summary(id);
    if (summary) out.push(summary);
  }
  return out;
}
