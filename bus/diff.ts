// The task's diff (DIFF-n, contract §10): the staged change a phone reviews for
// task T — exactly the bytes the gate will check and an approval signs — with
// per-file stats and the digest of those same bytes. Nothing staged: nothing to
// review or approve, and the view says so instead of showing the worktree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalRequested } from '../protocol/bus/events';
import type { TaskDiffSummary } from '../protocol/bus/diff';
import { gitBytes, stagedDigest } from './digest';
import { DEFAULT_LIMITS, type DiffLimits } from './diff-files';
import { patchFields, stagedFiles, stagedPatch, type StagedFile } from './diff-staged';
import { BusError } from './errors';
import { readEvents } from './event-log';
import { assertTaskId } from './layout';

export interface TaskDiff extends TaskDiffSummary {
  /** Unified diff text (binary, huge and over-budget hunks left out). */
  patch: string;
}

export type TaskDiffOptions = Partial<DiffLimits>;

const git = async (cwd: string, args: string[]) => (await gitBytes(cwd, args)).toString('utf8');

/** The approvable digest now: the staged digest of `worktree` (DIGEST-1). */
export async function currentDigest(worktree: string): Promise<string> {
  return (await stagedDigest(worktree)).digest;
}

/** The commit a staged change sits on (the parent its commit will have); the null oid before the first commit. */
export async function headOf(worktree: string): Promise<string> {
  const out = await git(worktree, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']).catch(() => '');
  return out.trim() || NULL_OID;
}

export const NULL_OID = '0'.repeat(40);

/** The tree the index would commit (`git write-tree`, honouring GIT_INDEX_FILE): the approved change's content, pinned. */
export async function indexTree(worktree: string): Promise<string> {
  return (await git(worktree, ['write-tree'])).trim();
}

/** Picks the worktree under review for `task` (pending approval, else agent/<task>) and shows its staged change. */
export async function taskDiff(bus: string, task: string, options: TaskDiffOptions = {}): Promise<TaskDiff> {
  assertTaskId(task);
  const limits = { ...DEFAULT_LIMITS, ...options };
  const requested = await approvalWorktree(bus, task);
  if (requested) return stagedView(task, 'approval', requested, limits);
  const repo = path.dirname(path.resolve(bus));
  const worktree = await branchWorktree(repo, `agent/${task}`);
  if (worktree) return { ...(await stagedView(task, 'branch', worktree, limits)), branch: `agent/${task}` };
  return { task, source: 'none', staged_files: 0, files: [], additions: 0, deletions: 0, patch_bytes: 0, truncated: false, patch: '' };
}

/** The worktree of the newest approval_requested for `task`, when its staged change still has that digest. */
async function approvalWorktree(bus: string, task: string): Promise<string | undefined> {
  const { events } = readEvents(bus);
  for (let k = events.length - 1; k >= 0; k--) {
    if (events[k]!.event !== 'approval_requested' || events[k]!.task !== task) continue;
    const parsed = ApprovalRequested.safeParse(events[k]);
    if (!parsed.success) continue;
    const staged = await currentDigest(parsed.data.worktree).catch(() => undefined);
    return staged === parsed.data.digest ? parsed.data.worktree : undefined;
  }
  return undefined;
}

/** The checked-out worktree (main checkout included) whose branch is exactly `branch`. */
export async function branchWorktree(repo: string, branch: string): Promise<string | undefined> {
  let out: string;
  try { out = await git(repo, ['worktree', 'list', '--porcelain', '-z']); } catch { return undefined; }
  let current: string | undefined;
  for (const line of out.split('\0')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}` && current && fs.existsSync(current)) return current;
  }
  return undefined;
}

/**
 * The staged change of `worktree`, read between two digest runs: when the index or
 * HEAD moved while the view was built the read is repeated, so the digest shown is
 * always the digest of the change shown (DIFF-7).
 */
async function stagedView(task: string, source: 'approval' | 'branch', worktree: string, limits: DiffLimits): Promise<TaskDiff> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [base, before] = [await headOf(worktree), await stagedDigest(worktree)];
    const files = before.files > 0 ? await stagedFiles(worktree, limits) : [];
    const view = files.length > 0 ? await stagedPatch(worktree, files, limits) : { files: [], patch: '', truncated: false };
    const [after, baseAfter] = [await stagedDigest(worktree), await headOf(worktree)];
    if (after.digest !== before.digest || baseAfter !== base) continue;
    return {
      task, source, worktree, base,
      ...(before.files > 0 ? { digest: before.digest } : {}),
      staged_files: before.files,
      ...patchFields(view),
    };
  }
  throw new BusError('E_GIT', `the staged change in ${worktree} kept changing while it was read; try again`);
}

export type { StagedFile };
