// `task.note` (LIMIT-2): the whole of the string fields (only those over the limit) a bus event showed cut to
// SHOWN_FIELD_BYTES, read again from the log line its cursor ends. Only a line of
// that task, under the line limit, can be named.
import type * as z from 'zod/mini';
import { readWholeEvent } from '../../bus/tail';
import { SHOWN_FIELD_BYTES } from '../../protocol/limits';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskNoteRequest } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace } from './task-common';

export async function taskNoteRead(ctx: TaskActionContext, frame: z.infer<typeof TaskNoteRequest>): Promise<{ fields: Record<string, string> }> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  await place.hub.catchUp(frame.repo);
  const log = place.model.log;
  const start = frame.cursor.epoch === log.epoch ? log.lineEndingAt(frame.task, frame.cursor.offset) : undefined;
  const event = start === undefined ? undefined : readWholeEvent(log.file, start, frame.cursor.offset);
  if (!event) throw new CommandrError('E_NOT_FOUND', `no event of ${frame.task} ends at that cursor`);
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(event)) if (typeof value === 'string' && Buffer.byteLength(value) > SHOWN_FIELD_BYTES) fields[key] = value;
  return { fields };
}
