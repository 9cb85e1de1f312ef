// Which worktree holds the change a person reviewed for a task, and whether the
// digest they saw is still the staged digest there (contract §6, §10; APPROVE-n, DENY-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { branchWorktree, currentDigest } from '../../bus/diff';
import { CommandrError } from '../../protocol/wire/errors';
import { commonDirOf, gitDirOf, headRefOf, stagedState, type StagedState } from './staged-state';
import type { TaskPlace } from './task-common';

/**
 * The worktree whose staged change has exactly `digest`: the newest
 * approval_requested's worktree first, then the `agent/<task>` worktree.
 * Throws E_NO_DIFF when there is none to review, E_STALE_DIGEST when the staged change moved on.
 */
export async function reviewedWorktree(place: TaskPlace, task: string, digest: string): Promise<string> {
  return (await reviewed(place, task, digest, async (worktree) => ({ digest: await currentDigest(worktree) }))).worktree;
}

/** As `reviewedWorktree`, with the base and index tree read from the same index as the digest (APPROVE-1). */
export async function reviewedState(place: TaskPlace, task: string, digest: string): Promise<StagedState & { worktree: string }> {
  return reviewed(place, task, digest, stagedState);
}

async function reviewed<T extends { digest: string }>(
  place: TaskPlace, task: string, digest: string, probe: (worktree: string) => Promise<T>,
): Promise<T & { worktree: string }> {
  const tried: string[] = [];
  let current: string | undefined;
  const matches = async (worktree: string | undefined): Promise<(T & { worktree: string }) | undefined> => {
    if (!worktree || tried.includes(worktree) || !fs.existsSync(worktree)) return undefined;
    tried.push(worktree);
    const found = await probe(worktree).catch((error: unknown) => {
      if (error instanceof CommandrError && error.code === 'E_STALE_DIGEST') throw error;
      return undefined;
    });
    current = found?.digest;
    return found && found.digest === digest ? { ...found, worktree } : undefined;
  };
  const requested = place.model.fold(task)?.reviewWorktree ?? undefined;
  const first = await matches(requested);
  if (first) return first;
  const second = await matches(await agentWorktree(path.dirname(place.bus), `agent/${task}`));
  if (second) return second;
  if (tried.length === 0) throw new CommandrError('E_NO_DIFF', `task ${task} has no change under review (no approval request, no agent/${task} worktree)`);
  throw new CommandrError('E_STALE_DIGEST', `the staged change of ${task} is now ${current ?? 'unreadable'}, not the reviewed ${digest}; review it again`);
}

/** Where each repo's `agent/<task>` branch was last found checked out; trusted only while that worktree's HEAD still names the branch. */
const checkedOut = new Map<string, string>();
const CHECKED_OUT_KEEP = 1000;

/** The worktree with `branch` checked out: the one found before when its HEAD still names it (no git process), else `git worktree list`. */
async function agentWorktree(repo: string, branch: string): Promise<string | undefined> {
  const key = `${repo}\0${branch}`;
  const known = checkedOut.get(key);
  if (known) {
    const gitDir = gitDirOf(known);
    if (gitDir && headRefOf(gitDir) === `refs/heads/${branch}` && sameDir(commonDirOf(gitDir), path.join(repo, '.git'))) return known;
    checkedOut.delete(key);
  }
  const found = await branchWorktree(repo, branch);
  if (found) noteAgentWorktree(repo, branch, found);
  return found;
}

/** Records where `git worktree list` found `branch` checked out (the diff read found it too). */
export function noteAgentWorktree(repo: string, branch: string, worktree: string): void {
  const key = `${repo}\0${branch}`;
  checkedOut.delete(key);
  checkedOut.set(key, worktree);
  if (checkedOut.size > CHECKED_OUT_KEEP) checkedOut.delete(checkedOut.keys().next().value!);
}

function sameDir(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
