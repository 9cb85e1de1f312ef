// `task.merge` (FINISH-1..4): the relay merges a committed task's branch agent/<task> into its
// base itself, through the hardened git runner (no `git merge`: no hooks, no merge tools).
// Allowed only when `commandr verify` passes for base..agent/<task> (the library, not a
// subprocess); a fast-forward when the base has not moved, else a merge commit written with
// plumbing (merge-tree, commit-tree) that carries a relay-signed approval of its own tree on its
// first parent, so the guarded remote accepts it. The ref moves by compare-and-swap. A base
// checked out in a worktree moves only when that worktree is clean, and its files follow
// (`read-tree -m -u`); a dirty one is refused with the reason.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { repoKeyOf, signApproval } from '../../bus/approval/sign';
import { withTrailer } from '../../bus/approval/trailer';
import { verifyWalk } from '../../bus/approval/verify';
import { defaultBranch, rangeWalk } from '../../bus/approval/walks';
import { appendEvent } from '../../bus/event-log';
import { git, gitResult } from '../../bus/git/run';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskMerge } from '../../protocol/wire/frames';
import type * as z from 'zod/mini';
import { type TaskActionContext, taskPlace } from './task-common';

export interface MergeResult { task: string; base: string; commit: string; mode: 'fast-forward' | 'merge'; worktree?: string }

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** stdout of a git run in `repo`, trimmed; a failure is the wire error `code` with git's words. */
export async function gitText(repo: string, args: string[], input?: string): Promise<string> {
  return (await git(args, { cwd: repo, env: process.env, ...(input === undefined ? {} : { input }) })).toString('utf8').trim();
}

/** The commit a ref names, or undefined. */
export async function refCommit(repo: string, ref: string): Promise<string | undefined> {
  const r = await gitResult(['rev-parse', '-q', '--verify', '--end-of-options', `${ref}^{commit}`], { cwd: repo, env: process.env });
  const oid = r.stdout.toString('utf8').trim();
  return r.code === 0 && OID.test(oid) ? oid : undefined;
}

async function isAncestor(repo: string, a: string, b: string): Promise<boolean> {
  const r = await gitResult(['merge-base', '--is-ancestor', a, b], { cwd: repo, env: process.env });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new CommandrError('E_INTERNAL', `git merge-base failed in ${repo}: ${r.stderr.trim()}`);
}

/** The task's branch and its tip; refused when the task has no branch with a commit. */
export async function taskBranch(repo: string, task: string): Promise<{ branch: string; tip: string }> {
  const branch = `agent/${task}`;
  const tip = await refCommit(repo, `refs/heads/${branch}`);
  if (!tip) throw new CommandrError('E_CONFLICT', `task ${task} has no branch ${branch} in this repo: nothing is committed to finish`);
  return { branch, tip };
}

/** The base to merge into: the one named, else the repo's default branch (a local branch). */
export async function baseBranch(repo: string, named: string | undefined, branch: string): Promise<{ base: string; commit: string }> {
  let base = named;
  if (base === undefined) {
    try {
      base = (await defaultBranch(repo)).replace(/^origin\//, '');
    } catch (error) {
      throw new CommandrError('E_CONFLICT', (error as Error).message);
    }
  }
  if (base === branch) throw new CommandrError('E_BAD_FRAME', `cannot merge ${branch} into itself: name another base`);
  const commit = await refCommit(repo, `refs/heads/${base}`);
  if (!commit) throw new CommandrError('E_CONFLICT', `there is no branch ${base} in this repo to merge into`);
  return { base, commit };
}

/** FINISH-2: every commit the merge brings must carry a valid relay-signed approval, as `commandr verify base..agent/<task>` checks. */
async function verifyRange(repo: string, base: string, branch: string, task: string, dataDir: string): Promise<void> {
  const key = loadOrCreateSigningKey(dataDir);
  const range = await rangeWalk(repo, `refs/heads/${base}..refs/heads/${branch}`, task);
  const report = await verifyWalk(repo, range.walk, { keys: [{ publicKey: key.publicKey, keyId: key.keyId }] });
  if (report.bad.length > 0) {
    const first = report.bad[0]!;
    throw new CommandrError('E_CONFLICT', `not merged: commandr verify ${base}..${branch} fails for ${report.bad.length} of ${report.checked} commit(s); ${first.commit.slice(0, 10)} "${first.subject}": ${first.reason}`);
  }
}

/** Worktrees that have `refs/heads/<base>` checked out. */
async function checkedOutAt(repo: string, base: string): Promise<string[]> {
  const out = await gitText(repo, ['worktree', 'list', '--porcelain']);
  const found: string[] = [];
  let at: string | undefined;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) at = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${base}` && at !== undefined) found.push(at);
  }
  return found;
}

/** Who the merge commit is by: the repo's configured identity, else the relay's. */
async function identityEnv(repo: string): Promise<NodeJS.ProcessEnv> {
  const get = async (key: string) => (await gitResult(['config', '--get', key], { cwd: repo, env: process.env })).stdout.toString('utf8').trim();
  const name = await get('user.name');
  const email = await get('user.email');
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!name && !env.GIT_AUTHOR_NAME) env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = 'Commandr relay';
  if (!email && !env.GIT_AUTHOR_EMAIL) env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = 'relay@commandr.invalid';
  return env;
}

/** The merged tree of `ours` and `theirs`, or the conflicting paths (FINISH-3). */
async function mergedTree(repo: string, ours: string, theirs: string): Promise<{ tree: string } | { conflicts: string[] }> {
  const r = await gitResult(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { cwd: repo, env: process.env });
  const lines = r.stdout.toString('utf8').split('\n').filter((l) => l !== '');
  if (r.code === 0 && OID.test(lines[0] ?? '')) return { tree: lines[0]! };
  if (r.code === 1) return { conflicts: [...new Set(lines.slice(1))] };
  throw new CommandrError('E_INTERNAL', `git merge-tree failed in ${repo}: ${r.stderr.trim() || `exit ${r.code}`}`);
}

/** The digest a merge approval names: what was merged, by content (two parents and the tree). */
export function mergeDigest(ours: string, theirs: string, tree: string): string {
  return `sha256:${createHash('sha256').update(`commandr-merge/1\n${ours}\n${theirs}\n${tree}\n`).digest('hex')}`;
}

/** Moves `ref` from `old` to `next` only if it is still at `old` (compare-and-swap). */
async function moveRef(repo: string, ref: string, next: string, old: string, reason: string): Promise<void> {
  const r = await gitResult(['update-ref', '-m', reason, ref, next, old], { cwd: repo, env: process.env });
  if (r.code !== 0) throw new CommandrError('E_CONFLICT', `not merged: ${ref.replace('refs/heads/', '')} moved while merging; look again and merge again (${r.stderr.trim()})`);
}

export interface MergeInput { repo: string; task: string; base?: string; by: string; dataDir: string }

/** The merge itself, on a repo path (the action handler's core; tests call it through the relay). */
export async function mergeTask(input: MergeInput): Promise<MergeResult> {
  const { repo, task } = input;
  const { branch, tip } = await taskBranch(repo, task);
  const { base, commit: old } = await baseBranch(repo, input.base, branch);
  if (await isAncestor(repo, tip, old)) throw new CommandrError('E_CONFLICT', `${branch} is already merged into ${base}: nothing to merge`);
  await verifyRange(repo, base, branch, task, input.dataDir);
  const worktrees = await checkedOutAt(repo, base);
  for (const wt of worktrees) {
    const dirty = await gitText(wt, ['status', '--porcelain', '--untracked-files=no']);
    if (dirty !== '') throw new CommandrError('E_CONFLICT', `not merged: ${base} is checked out in ${wt} with uncommitted changes; commit or put them aside there, then merge again`);
  }
  let next: string;
  let mode: MergeResult['mode'];
  if (await isAncestor(repo, old, tip)) {
    next = tip;
    mode = 'fast-forward';
  } else {
    const merged = await mergedTree(repo, old, tip);
    if ('conflicts' in merged) {
      throw new CommandrError('E_CONFLICT', `not merged: ${base} moved since the task branched and the two conflict in ${merged.conflicts.slice(0, 10).join(', ')}${merged.conflicts.length > 10 ? ' and more' : ''}; have the agent rebase ${branch} on ${base}, or open a pull request`);
    }
    const key = loadOrCreateSigningKey(input.dataDir);
    const approval = signApproval({
      v: 1, repo: repoKeyOf(repo), task, base: old, tree: merged.tree, digest: mergeDigest(old, tip, merged.tree), by: input.by, ts: new Date().toISOString(),
    }, key);
    const subject = (await gitText(repo, ['log', '-1', '--format=%s', tip])).slice(0, 200);
    const message = withTrailer(`Merge ${branch} into ${base}\n\n${task}: ${subject}\nMerged from the phone by ${input.by}.`, approval);
    next = (await git(['commit-tree', merged.tree, '-p', old, '-p', tip, '-F', '-'], { cwd: repo, env: await identityEnv(repo), input: message })).toString('utf8').trim();
    mode = 'merge';
  }
  await moveRef(repo, `refs/heads/${base}`, next, old, `commandr: ${mode} ${branch} into ${base}`);
  for (const wt of worktrees) {
    // The checked-out files follow the ref (clean, checked above): two-tree read-tree, which keeps untracked files or fails.
    const r = await gitResult(['read-tree', '-m', '-u', old, next], { cwd: wt, env: process.env });
    if (r.code !== 0) {
      await gitResult(['update-ref', `refs/heads/${base}`, old, next], { cwd: repo, env: process.env });
      throw new CommandrError('E_CONFLICT', `not merged: the files checked out in ${wt} could not follow ${base} (${r.stderr.trim()}); ${base} is left where it was`);
    }
  }
  return { task, base, commit: next, mode, ...(worktrees[0] ? { worktree: worktrees[0] } : {}) };
}

export async function taskMerge(ctx: TaskActionContext, frame: z.infer<typeof TaskMerge>): Promise<MergeResult> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const result = await mergeTask({
    repo: path.dirname(place.bus), task: frame.task, by: ctx.device.name, dataDir: ctx.services.dataDir, ...(frame.base ? { base: frame.base } : {}),
  });
  appendEvent(place.bus, { event: 'task_merged', task: frame.task, base: result.base, commit: result.commit, mode: result.mode, by: ctx.device.name });
  return result;
}
