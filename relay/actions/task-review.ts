// Which worktree holds the change a person reviewed for a task, and whether the
// digest they saw is still the staged digest there (contract §6, §10; APPROVE-n, DENY-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { branchWorktree, currentDigest } from '../../bus/diff';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskPlace } from './task-common';

/**
 * The worktree whose staged change has exactly `digest`: the newest
 * approval_requested's worktree first, then the `agent/<task>` worktree.
 * Throws E_NO_DIFF when there is none to review, E_STALE_DIGEST when the staged change moved on.
 */
export async function reviewedWorktree(place: TaskPlace, task: string, digest: string): Promise<string> {
  const tried: string[] = [];
  let current: string | undefined;
  const matches = async (worktree: string | undefined): Promise<boolean> => {
    if (!worktree || tried.includes(worktree) || !fs.existsSync(worktree)) return false;
    tried.push(worktree);
    current = await currentDigest(worktree).catch(() => undefined);
    return current === digest;
  };
  const requested = place.model.fold(task)?.reviewWorktree ?? undefined;
  if (await matches(requested)) return requested!;
  const branch = await branchWorktree(path.dirname(place.bus), `agent/${task}`);
  if (await matches(branch)) return branch!;
  if (tried.length === 0) throw new CommandrError('E_NO_DIFF', `task ${task} has no change under review (no approval request, no agent/${task} worktree)`);
  throw new CommandrError('E_STALE_DIGEST', `the staged change of ${task} is now ${current ?? 'unreadable'}, not the reviewed ${digest}; review it again`);
}
