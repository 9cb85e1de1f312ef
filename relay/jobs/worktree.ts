// Where a task job runs (JOB-2): `work` in the task's own worktree — the one whose
// branch is `agent/<task>`, added with `git worktree add` when missing; `review`
// in the main checkout. git is run with argument vectors, never a shell.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitResult, gitText } from '../../bus/git/run';
import { CommandrError } from '../../protocol/wire/errors';

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return await gitText(args, { cwd, maxBytes: 8 * 1024 * 1024 });
  } catch (error) {
    throw new CommandrError('E_INTERNAL', (error as Error).message);
  }
}

/** The path of the worktree checked out on `branch`, or null. */
export async function worktreeOf(repo: string, branch: string): Promise<string | null> {
  const listing = await git(repo, ['worktree', 'list', '--porcelain']);
  let current: string | null = null;
  for (const line of listing.split('\n')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}` && current !== null && fs.existsSync(current)) return current;
  }
  return null;
}

async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await gitResult(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: repo })).code === 0;
}

/** The task's worktree, created under `root/<task>` on branch agent/<task> if it does not exist. */
export async function ensureTaskWorktree(repo: string, task: string, root: string): Promise<string> {
  const branch = `agent/${task}`;
  const existing = await worktreeOf(repo, branch);
  if (existing !== null) return existing;
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const target = path.join(root, task);
  await git(repo, ['worktree', 'prune']);
  if (await branchExists(repo, branch)) await git(repo, ['worktree', 'add', target, branch]);
  else await git(repo, ['worktree', 'add', '-b', branch, target, 'HEAD']);
  return fs.realpathSync(target);
}
