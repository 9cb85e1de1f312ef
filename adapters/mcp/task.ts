// Which task a tool call acts on (MCP-3): the session's own task, found as the
// hooks find it (`AGENTS_TASK_ID`, else an `agent/<id>` branch, in the repo of the
// server's working directory). A call naming another task, or with none, is refused.
import { type TaskContext, taskContext } from '../lib/task-context';
import type { Env } from '../lib/env';
import { ToolError } from './result';

export interface ToolEnv {
  cwd: string;
  env: Env;
}

export function taskFor(requested: string | undefined, where: ToolEnv): TaskContext {
  const own = taskContext(where.cwd, where.env);
  if (!own) {
    throw new ToolError(
      'E_NO_TASK',
      `no task to act on: this session has no task (set AGENTS_TASK_ID, or work on a branch agent/<task-id> in a repo with a bus)${requested ? `; "${requested}" cannot be named instead` : ''}`,
    );
  }
  if (requested !== undefined && requested !== own.task) {
    throw new ToolError('E_OTHER_TASK', `this session works on task ${own.task}; it cannot act on task ${requested}. Leave "task" out to act on your own task.`);
  }
  return own;
}
