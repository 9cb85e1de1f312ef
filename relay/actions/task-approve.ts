// `task.approve` (APPROVE-n): re-check the reviewed digest, write the digest-bound
// token (exclusive, 0600) and append approval_granted; a stale digest writes nothing.
import type * as z from 'zod/mini';
import { appendEvent } from '../../bus/event-log';
import { readApprovalToken, writeApprovalToken } from '../../bus/gate';
import { BusError } from '../../bus/errors';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskApprove } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace, wireError } from './task-common';
import { reviewedWorktree } from './task-review';

export interface ApproveResult { task: string; digest: string; worktree: string; token: 'written' | 'existing' }

export async function taskApprove(ctx: TaskActionContext, frame: z.infer<typeof TaskApprove>): Promise<ApproveResult> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const worktree = await reviewedWorktree(place, frame.task, frame.digest);
  const base = { task: frame.task, digest: frame.digest, worktree };
  if (sameTokenExists(place.bus, frame.task, frame.digest)) return { ...base, token: 'existing' };
  try {
    writeApprovalToken(place.bus, frame.task, { digest: frame.digest, by: ctx.device.name });
  } catch (error) {
    if (error instanceof BusError && error.code === 'E_EXISTS') {
      if (sameTokenExists(place.bus, frame.task, frame.digest)) return { ...base, token: 'existing' };
      throw new CommandrError('E_CONFLICT', `task ${frame.task} already has an approval token for a different change`);
    }
    throw wireError(error);
  }
  appendEvent(place.bus, { event: 'approval_granted', task: frame.task, digest: frame.digest, by: ctx.device.name });
  return { ...base, token: 'written' };
}

/** A token for exactly this digest is already there: approving again is a no-op. Any other token is a conflict. */
function sameTokenExists(bus: string, task: string, digest: string): boolean {
  const token = readApprovalToken(bus, task);
  if (token.kind === 'missing') return false;
  if (token.kind === 'digest' && token.digest === digest) return true;
  throw new CommandrError('E_CONFLICT', `task ${task} already has an approval token${token.kind === 'digest' ? ` for ${token.digest}` : ''}; remove it before approving another change`);
}
