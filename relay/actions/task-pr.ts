// `task.pr` (FINISH-6, FINISH-7): opens a pull request (GitHub, `gh`) or merge request
// (GitLab, `glab`) for agent/<task> with the person's own forge CLI, installed and logged in
// on this machine. The relay stores no forge token: it runs the CLI as the person would, with
// their environment, no shell and no prompt. The branch is pushed first (task-push.ts).
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { appendEvent } from '../../bus/event-log';
import { gitResult } from '../../bus/git/run';
import { onPath } from '../../adapters/lib/env';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskPr } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace } from './task-common';
import { baseBranch, taskBranch } from './task-merge';
import { pushTask } from './task-push';

export type Forge = 'gh' | 'glab';
export interface PrResult { task: string; forge: Forge; url: string; base: string; branch: string; remote: string }

interface Run { code: number | null; stdout: string; stderr: string }
function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, {
      cwd, timeout: 60_000, maxBuffer: 1 << 20, encoding: 'utf8',
      env: { ...process.env, GH_PROMPT_DISABLED: '1', GIT_TERMINAL_PROMPT: '0', NO_COLOR: '1', GLAB_NO_PROMPT: '1' },
    }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr: stderr || (error && code === null ? error.message : '') });
    });
  });
}

/** Which forge CLI: the one asked for, else the one the remote's host names, else the one installed. */
async function forgeFor(repo: string, remote: string, asked: Forge | undefined): Promise<{ forge: Forge; file: string }> {
  const url = (await gitResult(['config', '--get', `remote.${remote}.url`], { cwd: repo, env: process.env })).stdout.toString('utf8');
  const hinted: Forge | undefined = /gitlab/i.test(url) ? 'glab' : /github/i.test(url) ? 'gh' : undefined;
  const order: Forge[] = asked ? [asked] : hinted ? [hinted] : ['gh', 'glab'];
  for (const forge of order) {
    const file = onPath(forge);
    if (file) return { forge, file };
  }
  throw new CommandrError('E_UNAVAILABLE', `no ${order.join(' or ')} CLI is installed on the relay's machine: install it and log in (${order.map((f) => `${f} auth login`).join(' / ')}), or push the branch and open the request on the forge`);
}

export async function openPr(input: { repo: string; task: string; title: string; base?: string; forge?: Forge; by: string }): Promise<PrResult> {
  const { repo, task } = input;
  const { branch } = await taskBranch(repo, task);
  const { base } = await baseBranch(repo, input.base, branch);
  const { remote } = await pushTask(repo, task).catch((error: unknown) => {
    if (error instanceof CommandrError) throw new CommandrError(error.code, `no pull request opened: ${error.message}`);
    throw error;
  });
  const { forge, file } = await forgeFor(repo, remote, input.forge);
  const auth = await run(file, ['auth', 'status'], repo);
  if (auth.code !== 0) throw new CommandrError('E_UNAVAILABLE', `${forge} is not logged in on the relay's machine: run \`${forge} auth login\` there (the relay never stores forge tokens)`);
  const body = `Task ${task}, committed by its agent with an approval given on the phone (Commandr); each commit carries a Commandr-Approval trailer.\n\nOpened by ${input.by}.`;
  const args = forge === 'gh'
    ? ['pr', 'create', '--head', branch, '--base', base, '--title', input.title, '--body', body]
    : ['mr', 'create', '--source-branch', branch, '--target-branch', base, '--title', input.title, '--description', body, '--yes'];
  const r = await run(file, args, repo);
  const url = /(https?:\/\/\S+)/.exec(r.stdout.split('\n').reverse().find((l) => /https?:\/\//.test(l)) ?? '')?.[1];
  if (r.code !== 0 || !url) {
    const why = (r.stderr.trim() || r.stdout.trim()).split('\n').filter((l) => l.trim() !== '').slice(-3).join(' · ');
    throw new CommandrError('E_CONFLICT', `${forge} did not open the ${forge === 'gh' ? 'pull' : 'merge'} request: ${why || `exit ${r.code}`}`);
  }
  return { task, forge, url, base, branch, remote };
}

export async function taskPr(ctx: TaskActionContext, frame: z.infer<typeof TaskPr>): Promise<PrResult> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  const result = await openPr({
    repo: path.dirname(place.bus), task: frame.task, title: (place.summary.title ?? frame.task).slice(0, 200), by: ctx.device.name,
    ...(frame.base ? { base: frame.base } : {}), ...(frame.forge ? { forge: frame.forge } : {}),
  });
  appendEvent(place.bus, { event: 'pr_opened', task: frame.task, forge: result.forge, url: result.url, base: result.base, branch: result.branch, by: ctx.device.name });
  return result;
}
