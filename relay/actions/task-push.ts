// `task.push` (FINISH-5): pushes agent/<task> to the repo's remote — the branch's configured
// upstream remote, else `origin` — through the hardened git runner (no hooks of the
// repository run; a guarded remote checks every commit itself, RVERIFY-2). A refused push
// says git's reason; nothing is written to the bus unless the remote took the branch.
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { appendEvent } from '../../bus/event-log';
import { gitResult } from '../../bus/git/run';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskPush } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace } from './task-common';
import { taskBranch } from './task-merge';
import { remoteCandidates } from '../watch/repo-remotes';

export interface PushResult { task: string; remote: string; branch: string; commit: string }

async function configValue(repo: string, key: string): Promise<string> {
  return (await gitResult(['config', '--get', key], { cwd: repo, env: process.env })).stdout.toString('utf8').trim();
}

/** The remote a task's branch goes to: its upstream's remote, else `origin`; refused when neither is configured. */
export async function remoteOf(repo: string, branch: string): Promise<string> {
  for (const remote of remoteCandidates(await configValue(repo, `branch.${branch}.remote`))) if (await configValue(repo, `remote.${remote}.url`) !== '') return remote;
  throw new CommandrError('E_UNAVAILABLE', `this repo has no remote to push ${branch} to (no upstream for it, no origin): add one with git remote add origin <url>`);
}

export async function pushTask(repo: string, task: string): Promise<PushResult> {
  const { branch, tip } = await taskBranch(repo, task);
  const remote = await remoteOf(repo, branch);
  const r = await gitResult(['push', '--porcelain', '--', remote, `${tip}:refs/heads/${branch}`], {
    cwd: repo, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, timeoutMs: 120_000,
  });
  if (r.code !== 0) {
    const why = (r.stderr.trim() || r.stdout.toString('utf8').trim()).split('\n').filter((l) => l.trim() !== '').slice(-6).join(' · ');
    throw new CommandrError('E_CONFLICT', `${remote} refused ${branch}: ${why || `git push exit ${r.code}`}`);
  }
  return { task, remote, branch, commit: tip };
}

export async function taskPush(ctx: TaskActionContext, frame: z.infer<typeof TaskPush>): Promise<PushResult> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const result = await pushTask(path.dirname(place.bus), frame.task);
  appendEvent(place.bus, { event: 'task_pushed', task: frame.task, remote: result.remote, branch: result.branch, commit: result.commit, by: ctx.device.name });
  return result;
}
