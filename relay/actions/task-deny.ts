// `task.deny` (DENY-n): the reviewed digest must still be current; then one
// approval_denied event and no token.
import type * as z from 'zod/mini';
import { appendEvent } from '../../bus/event-log';
import type { TaskDeny } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace } from './task-common';
import { reviewedWorktree } from './task-review';

export async function taskDeny(ctx: TaskActionContext, frame: z.infer<typeof TaskDeny>): Promise<{ task: string; digest: string }> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  await reviewedWorktree(place, frame.task, frame.digest);
  const reason = frame.reason?.replace(/[\r\n\t]+/g, ' ').trim();
  appendEvent(place.bus, { event: 'approval_denied', task: frame.task, digest: frame.digest, by: ctx.device.name, ...(reason ? { reason } : {}) });
  return { task: frame.task, digest: frame.digest };
}
