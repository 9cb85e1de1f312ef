// What the bash hook clients send (FAST-1, REPORT-2): the spool record's layout — NUL-terminated
// `KEY=value` fields, an empty field, a JSON object — read once for both hook routes, with the
// same credential rule (FAST-4, REPORT-3) and errors that name what is wrong.
import type * as http from 'node:http';
import { readFields } from '../../adapters/lib/hook-spool';
import type { Env } from '../../adapters/lib/env';
import { CommandrError } from '../../protocol/wire/errors';
import { readBody } from '../http/respond';
import type { RelayServices } from '../context';
import { checkScope, checkSession, hookCaller } from './scoped-tokens';

export interface HookRecord {
  /** The fields asked for that were sent and not empty (an empty value means unset in the hook). */
  env: Env;
  payload: Record<string, unknown>;
  /** `AT` (µs when the hook was invoked), else now. */
  at: number;
}

const AT = /^\d{1,16}$/;

/** `what` names the route in errors: "permission check", "hook report". */
export async function readHookRecord(services: RelayServices, req: http.IncomingMessage, hookToken: string, keys: readonly string[], limit: number, what: string): Promise<HookRecord> {
  // Only the hook's own client: a browser page (it sends Origin or Sec-Fetch-*) never may, whatever it knows.
  if (req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined) {
    req.resume();
    throw new CommandrError('E_UNAUTHORIZED', `${what}: takes no browser request`);
  }
  const caller = hookCaller(services, hookToken, req, what);
  const body = await readBody(req, limit);
  const { env, payloadStart } = readFields(body, [...keys, 'AT']);
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8', payloadStart));
  } catch {
    throw new CommandrError('E_BAD_FRAME', `${what}: the payload after the fields is not JSON`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new CommandrError('E_BAD_FRAME', `${what}: the payload is not a JSON object`);
  const at = AT.test(env.AT ?? '') ? Number(env.AT) : Math.floor(Date.now() * 1000);
  delete env.AT;
  for (const key of Object.keys(env)) if (env[key] === '') delete env[key];
  const record = payload as Record<string, unknown>;
  const cwd = typeof record.cwd === 'string' ? record.cwd : undefined;
  // JOBTOKEN-2: a run's own credential speaks only for its task, agent and directories — the
  // payload's `cwd` (where the relay runs git and writes the bus) among them, and a relative
  // GIT_DIR or GIT_WORK_TREE as git reads it, from the hook's directory.
  checkScope(caller, { task: env.COMMANDR_TASK ?? env.AGENTS_TASK_ID, agent: env.COMMANDR_AGENT_ID, paths: [cwd, env.PWD, env.CLAUDE_PROJECT_DIR, env.AGENT_CWD, env.GIT_DIR, env.GIT_WORK_TREE], base: cwd ?? env.PWD }, what);
  if (caller.scope !== null) {
    checkScope(caller, { task: env.AGENTS_TASK_ID }, what);
    // With no directory named, the relay would act in its own (JOBTOKEN-2).
    if (cwd === undefined && env.CLAUDE_PROJECT_DIR === undefined && env.PWD === undefined) throw new CommandrError('E_FORBIDDEN', `${what}: the credential of ${caller.scope.owner} must name its directory (the payload's cwd, or PWD)`);
    // What it left unsaid is its own (JOBTOKEN-3): the task a branch would name is not asked.
    if (caller.scope.task !== undefined) env.AGENTS_TASK_ID = caller.scope.task;
    env.COMMANDR_AGENT_ID = caller.scope.agent;
  }
  if (typeof record.session_id === 'string' && record.session_id !== '') checkSession(services, caller, record.session_id, what);
  return { env, payload: record, at };
}
