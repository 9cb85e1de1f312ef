// `task.detail` and `task.timeline`: a task's packet body, its annotations (with
// file names; those that are not the person's flagged, ANNOT-6), the latest checks when a checks
// service exists, and its bus events.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { listAnnotations } from '../../bus/annotations';
import { sortNotesAsync } from '../../bus/note-origin';
import { splitFrontMatter } from '../../bus/packet';
import type { TaskDetailRequest, TaskTimelineRequest } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import type { CheckResult, TaskDetail } from '../../protocol/wire/views';
import type { RelayServices } from '../context';
import { type TaskActionContext, taskPlace } from './task-common';

export async function taskDetailRead(ctx: TaskActionContext, frame: z.infer<typeof TaskDetailRequest>): Promise<TaskDetail> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  let text: string;
  try {
    text = fs.readFileSync(place.packet, 'utf8');
  } catch {
    throw new CommandrError('E_UNKNOWN_TASK', `the packet of ${frame.task} moved or vanished; try again`);
  }
  const listed = listAnnotations(place.bus, frame.task);
  const held = new Set((await sortNotesAsync(place.bus, frame.task, listed)).held.map((h) => h.file));
  const annotations = listed.map((a) => ({ file: path.basename(a.file), annotation: a.note, ...(held.has(a.file) ? { fromRepository: true as const } : {}) }));
  return {
    summary: place.summary,
    body: splitFrontMatter(text)?.body ?? text,
    annotations,
    checks: await checksOf(ctx.services, frame.repo, frame.task),
  };
}

interface ChecksService { latest(repo: string, task: string): CheckResult[] | Promise<CheckResult[]> }

async function checksOf(services: RelayServices, repo: string, task: string): Promise<CheckResult[]> {
  const checks = (services as { checks?: Partial<ChecksService> }).checks;
  return typeof checks?.latest === 'function' ? await checks.latest(repo, task) : [];
}

export async function taskTimelineRead(ctx: TaskActionContext, frame: z.infer<typeof TaskTimelineRequest>): Promise<unknown> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  await place.hub.catchUp(frame.repo);
  const log = place.model.log;
  const events = log.timeline(frame.task).map((p) => ({ cursor: { offset: p.end, epoch: log.epoch }, event: p.event }));
  return { repo: frame.repo, task: frame.task, events };
}
