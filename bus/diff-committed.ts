// The committed change of a task (TSTATE-3): once the agent committed, nothing is staged,
// and what the person approved lives on the branch agent/<task>. It is shown as the branch
// against its merge base with the repo's default branch, with the same per-file stats, limits
// and patch format as a staged change (bus/diff-staged.ts), so a reload or a fresh device shows
// the committed work, not "nothing staged". Read from git alone: no event is needed.
import * as path from 'node:path';
import type { TaskDiff, TaskDiffOptions } from './diff';
import { gitBytes } from './digest';
import { DEFAULT_LIMITS } from './diff-files';
import { patchFields, stagedFiles, stagedPatch } from './diff-staged';
import { assertTaskId } from './layout';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

async function commitOf(repo: string, rev: string): Promise<string | undefined> {
  const out = await gitBytes(repo, ['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`]).catch(() => undefined);
  const oid = out?.toString('utf8').trim();
  return oid && OID.test(oid) ? oid : undefined;
}

/**
 * The repo's default branch as a commit: origin's HEAD when there is a remote, else the branch the
 * main checkout is on (unless it is the task's own branch), else main or master.
 */
export async function defaultBranchCommit(repo: string, taskBranch: string): Promise<{ name: string; commit: string } | undefined> {
  const symbolic = async (ref: string) => (await gitBytes(repo, ['symbolic-ref', '-q', ref]).catch(() => undefined))?.toString('utf8').trim() || undefined;
  const candidates = [await symbolic('refs/remotes/origin/HEAD'), await symbolic('HEAD'), 'refs/heads/main', 'refs/heads/master'];
  for (const ref of candidates) {
    if (!ref || ref === `refs/heads/${taskBranch}`) continue;
    const commit = await commitOf(repo, ref);
    if (commit) return { name: ref.replace(/^refs\/(heads|remotes)\//, ''), commit };
  }
  return undefined;
}

export interface CommittedDiff extends TaskDiff {
  source: 'commit';
  branch: string;
  /** The merge base the branch is compared with. */
  base: string;
  /** The branch's tip. */
  commit: string;
}

/**
 * agent/<task> against its merge base with the default branch; undefined when the branch is
 * missing or has no commit of its own. `known` (a commit the bus reported) is shown when the
 * branch is gone, or already merged: then that one commit against its parent.
 */
export async function committedDiff(bus: string, task: string, known?: string, options: TaskDiffOptions = {}): Promise<CommittedDiff | undefined> {
  assertTaskId(task);
  const limits = { ...DEFAULT_LIMITS, ...options };
  const repo = path.dirname(path.resolve(bus));
  const branch = `agent/${task}`;
  const tip = await commitOf(repo, `refs/heads/${branch}`) ?? (known && OID.test(known) ? await commitOf(repo, known) : undefined);
  if (!tip) return undefined;
  const main = await defaultBranchCommit(repo, branch);
  let base = main ? (await gitBytes(repo, ['merge-base', main.commit, tip]).catch(() => undefined))?.toString('utf8').trim() : undefined;
  let shown = tip;
  if (!base || !OID.test(base) || base === tip) {
    // No default branch to compare with, or the branch is already in it: the reported commit alone.
    shown = known && OID.test(known) ? (await commitOf(repo, known)) ?? tip : tip;
    base = await commitOf(repo, `${shown}^`);
    if (!base) return undefined; // a root commit: nothing to compare it with
  }
  const range = { base, tip: shown };
  const files = await stagedFiles(repo, limits, range);
  if (files.length === 0) return undefined;
  const view = await stagedPatch(repo, files, limits, range);
  return {
    task, source: 'commit', branch, base, commit: shown,
    staged_files: 0,
    ...patchFields(view),
  };
}
