// `task.approve` (APPROVE-n, APPROVAL-4..6): re-check the reviewed digest (with base and tree, of one index), then sign
// {repo, task, base, tree, digest} with the relay's Ed25519 key and write the token
// (0600, replacing a token whose change is no longer staged), then approval_granted.
// A stale digest writes nothing.
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { repoKeyOf, signApproval } from '../../bus/approval/sign';
import { appendEvent } from '../../bus/event-log';
import { readApprovalToken, writeSignedToken } from '../../bus/gate';
import type { TaskApprove } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace, wireError } from './task-common';
import { reviewedState } from './task-review';

export interface ApproveResult { task: string; digest: string; worktree: string; token: 'written' | 'existing'; base: string }

export async function taskApprove(ctx: TaskActionContext, frame: z.infer<typeof TaskApprove>): Promise<ApproveResult> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  // Digest, base and tree of one copy of the index (staged-state.ts): all three describe the change the person saw.
  const { worktree, base, tree: read } = await reviewedState(place, frame.task, frame.digest);
  if (read instanceof Error) throw wireError(read);
  const tree = read;
  const result = { task: frame.task, digest: frame.digest, worktree, base };
  const existing = readApprovalToken(place.bus, frame.task);
  if (existing.kind === 'signed' && existing.approval.digest === frame.digest && existing.approval.base === base && existing.approval.tree === tree) {
    return { ...result, token: 'existing' };
  }
  const key = loadOrCreateSigningKey(ctx.services.dataDir);
  const approval = signApproval({
    v: 1, repo: repoKeyOf(path.dirname(place.bus)), task: frame.task, base, tree, digest: frame.digest, by: ctx.device.name, ts: new Date().toISOString(),
  }, key);
  try {
    writeSignedToken(place.bus, approval);
  } catch (error) {
    throw wireError(error);
  }
  appendEvent(place.bus, { event: 'approval_granted', task: frame.task, digest: frame.digest, by: ctx.device.name });
  return { ...result, token: 'written' };
}
