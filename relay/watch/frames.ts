// Turning model state into wire frames: paged snapshots (PAGE-n) and `bus.events`
// batches (at most 500 events or about 256 KiB of event JSON per frame).
import type { PlacedEvent } from '../../bus/tail';
import {
  type DonePageKey, SNAPSHOT_DONE_TASKS, SNAPSHOT_PAGE_BYTES, SNAPSHOT_PAGE_TASKS, type ServerFrameOf,
} from '../../protocol/wire/frames';
import type { TaskSummary } from '../../protocol/wire/views';
import { taskOf } from './log-index';
import type { RepoModel } from './repo-model';

export type BusEventsFrame = ServerFrameOf<'bus.events'>;
export type RepoSnapshotFrame = ServerFrameOf<'repo.snapshot'>;
export type RepoTasksFrame = ServerFrameOf<'repo.tasks'>;
/** A snapshot as it goes on the wire: the `repo.snapshot` frame, then its `repo.tasks` pages. */
export type SnapshotFrames = [RepoSnapshotFrame, ...RepoTasksFrame[]];

export const MAX_FRAME_EVENTS = 500;
export const MAX_FRAME_EVENT_BYTES = 256 * 1024;

/** The newest-first order the app shows (lastEventTs descending, then id): pages follow it. */
export function newestFirst(a: TaskSummary, b: TaskSummary): number {
  const at = a.lastEventTs ?? '';
  const bt = b.lastEventTs ?? '';
  if (at !== bt) return at < bt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Cuts tasks into pages of at most SNAPSHOT_PAGE_TASKS and about SNAPSHOT_PAGE_BYTES each. */
export function pageTasks(tasks: TaskSummary[]): TaskSummary[][] {
  const pages: TaskSummary[][] = [];
  let page: TaskSummary[] = [];
  let bytes = 0;
  for (const task of tasks) {
    const size = JSON.stringify(task).length;
    if (page.length > 0 && (page.length >= SNAPSHOT_PAGE_TASKS || bytes + size > SNAPSHOT_PAGE_BYTES)) {
      pages.push(page);
      page = [];
      bytes = 0;
    }
    page.push(task);
    bytes += size;
  }
  pages.push(page);
  return pages;
}

/**
 * The repo's state, paged (PAGE-1): every task not done (newest first), then the newest
 * SNAPSHOT_DONE_TASKS done ones; older done tasks are read with `repo.done` (PAGE-2).
 */
export function snapshotFrames(model: RepoModel, resync = false): SnapshotFrames {
  const all = model.tasks();
  const active = all.filter((t) => t.state !== 'done').sort(newestFirst);
  const done = all.filter((t) => t.state === 'done').sort(newestFirst);
  const sentDone = done.slice(0, SNAPSHOT_DONE_TASKS);
  const [first, ...rest] = pageTasks([...active, ...sentDone]);
  const frame: RepoSnapshotFrame = {
    type: 'repo.snapshot', repo: model.info, tasks: first!, cursor: model.log.cursor(),
    pages: rest.length, done: { total: done.length, sent: sentDone.length }, at: new Date().toISOString(),
  };
  if (resync) frame.resync = true;
  return [frame, ...rest.map((tasks): RepoTasksFrame => ({ type: 'repo.tasks', repo: model.info.id, tasks }))];
}

/** One page of done tasks older than `before` in newest-first order (PAGE-2). */
export function donePage(model: RepoModel, before: DonePageKey | undefined, limit: number): { tasks: TaskSummary[]; total: number; more: boolean } {
  const done = model.tasks().filter((t) => t.state === 'done').sort(newestFirst);
  const key = before && ({ lastEventTs: before.ts, id: before.id } as TaskSummary);
  const start = key ? done.findIndex((t) => newestFirst(t, key) > 0) : 0;
  const from = start < 0 ? done.length : start;
  const tasks = pageTasks(done.slice(from, from + limit))[0]!;
  return { tasks, total: done.length, more: from + tasks.length < done.length };
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
