// Which task a hook is working for and where its bus is: `AGENTS_TASK_ID`, else an
// `agent/<task-id>` branch (the gate's rule), in the repo holding the session's cwd.
import { currentBranch, resolveTaskIdentity } from '../../bus/gate';
import { locateGit } from '../../bus/locate';
import type { Env } from './env';

export interface TaskContext {
  task: string;
  bus: string;
  worktree: string;
}

/** The task and bus for `cwd`, or undefined when there is no repo or no task identity. */
export function taskContext(cwd: string, env: Env = process.env): TaskContext | undefined {
  try {
    const place = locateGit(cwd, env as NodeJS.ProcessEnv);
    const identity = resolveTaskIdentity(env.AGENTS_TASK_ID, currentBranch(place.gitDir));
    return identity.task ? { task: identity.task, bus: place.bus, worktree: place.worktree } : undefined;
  } catch {
    return undefined;
  }
}

/** The task id only, for live events; falls back to the relay's `COMMANDR_TASK`. */
export function taskOf(cwd: string, env: Env = process.env): string | undefined {
  return taskContext(cwd, env)?.task ?? (env.COMMANDR_TASK?.trim() || undefined);
}
