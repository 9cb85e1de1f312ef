// `POST /api/permissions/check` (FAST-n): the permission fast path. `hooks/permission-fast`
// (bash, no node start) posts the Claude Code `PreToolUse` payload with the environment the
// decision reads, and the relay — which keeps the parsed policy layers — answers the hook's
// stdout at once when the policy decides locally. Anything that needs a person, or a policy
// that cannot be read, goes the slow way: the hook then runs the node hook (the slow path),
// which asks through `POST /api/permissions` exactly as before (PERM-n, GUARD-n). That answer
// is `202 {slow: true}`, not an error: only a `200` is a decision the hook prints.
import type * as http from 'node:http';
import { decidePermission, DECISION_ENV_KEYS, hookAnswer } from '../../adapters/claude/lib/permission-decide';
import { cachedPolicyLoader } from '../../adapters/lib/policy-cache';
import { translate } from '../../adapters/claude/lib/translate';
import type { Env } from '../../adapters/lib/env';
import { ingestLive, publishAfterAnswer } from '../live/route';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { sendJson } from '../http/respond';
import { readHookRecord } from '../live/hook-record';

/** A tool call's payload above this (a huge Write) takes the slow path. */
export const CHECK_BODY_LIMIT = 1024 * 1024;

const loaders = new WeakMap<RelayServices, ReturnType<typeof cachedPolicyLoader>>();

/** Publishes the call's `running` live event, as `hooks/report PreToolUse` would have (REPORT-4). */
function reportStart(services: RelayServices, payload: Record<string, unknown>, env: Env, at: number): void {
  try {
    const happening = translate({ at, hook: 'PreToolUse', payload }, env);
    if (happening) ingestLive(services, happening);
  } catch { /* the live view is best effort: the decision still follows */ }
}

export async function postPermissionCheck(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { env, payload, at } = await readHookRecord(services, req, hookToken, DECISION_ENV_KEYS, CHECK_BODY_LIMIT, 'permission check');
  // The relay's own data dir is the hook's $COMMANDR_HOME: the hook found this relay's credential there.
  env.COMMANDR_HOME = services.dataDir;
  let loader = loaders.get(services);
  if (!loader) loaders.set(services, (loader = cachedPolicyLoader()));
  const outcome = decidePermission(payload, env, env.PWD || '/', loader);
  // Not a tool call, or nothing decided here: the node hook judges (and asks a person) as before.
  if (!outcome || outcome.kind === 'person' || (outcome.kind === 'answer' && outcome.decision === 'ask')) {
    sendJson(res, 202, { slow: true, why: 'a person must decide, or the policy cannot be read here: the permission hook runs its slow path' });
  } else {
    const text = outcome.kind === 'answer' ? hookAnswer(outcome.decision, outcome.reason) : '';
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  }
  // The call's start is reported here, so PreToolUse needs no second hook (REPORT-4), once the
  // answer has left (the hook waits on nothing done here), before anything published later. Only
  // with a 200 or 202, which is what tells the hook the start was taken: an error here leaves it
  // to the hook's spool, not to both.
  publishAfterAnswer(services, () => reportStart(services, payload, env, at));
}
