// What the bash hook clients send (FAST-1, REPORT-2): the spool record's layout — NUL-terminated
// `KEY=value` fields, an empty field, a JSON object — read once for both hook routes, with the
// same credential rule (FAST-4, REPORT-3) and errors that name what is wrong.
import type * as http from 'node:http';
import { readFields } from '../../adapters/lib/hook-spool';
import type { Env } from '../../adapters/lib/env';
import { CommandrError } from '../../protocol/wire/errors';
import { readBody } from '../http/respond';
import { checkScope, hookCaller } from './scoped-tokens';

export interface HookRecord {
  /** The fields asked for that were sent and not empty (an empty value means unset in the hook). */
  env: Env;
  payload: Record<string, unknown>;
  /** `AT` (µs when the hook was invoked), else now. */
  at: number;
}

const AT = /^\d{1,16}$/;

/** `what` names the route in errors: "permission check", "hook report". */
export async function readHookRecord(services: object, req: http.IncomingMessage, hookToken: string, keys: readonly string[], limit: number, what: string): Promise<HookRecord> {
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
  // JOBTOKEN-2: a run's own credential speaks only for its task, agent and directories.
  checkScope(caller, { task: env.COMMANDR_TASK ?? env.AGENTS_TASK_ID, agent: env.COMMANDR_AGENT_ID, paths: [env.PWD, env.CLAUDE_PROJECT_DIR, env.AGENT_CWD, env.GIT_DIR, env.GIT_WORK_TREE] }, what);
  if (caller.scope !== null) checkScope(caller, { task: env.AGENTS_TASK_ID }, what);
  return { env, payload: payload as Record<string, unknown>, at };
}
