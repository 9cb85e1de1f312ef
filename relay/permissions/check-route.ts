// `POST /api/permissions/check` (FAST-n): the permission fast path. `hooks/permission-fast`
// (bash, no node start) posts the Claude Code `PreToolUse` payload with the environment the
// decision reads, and the relay — which keeps the parsed policy layers — answers the hook's
// stdout at once when the policy decides locally. Anything that needs a person, or a policy
// that cannot be read, goes the slow way: the hook then runs the node hook (the slow path),
// which asks through `POST /api/permissions` exactly as before (PERM-n, GUARD-n). That answer
// is `202 {slow: true}`, not an error: only a `200` is a decision the hook prints.
import type * as http from 'node:http';
import { decidePermission, DECISION_ENV_KEYS, hookAnswer } from '../../adapters/claude/lib/permission-decide';
import { readFields } from '../../adapters/lib/hook-spool';
import { cachedPolicyLoader } from '../../adapters/lib/policy-cache';
import { translate } from '../../adapters/claude/lib/translate';
import type { Env } from '../../adapters/lib/env';
import { ingestLive } from '../live/route';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { bearerToken, readBody, sendJson } from '../http/respond';
import { tokenMatches } from '../live/hook-token';

/** A tool call's payload above this (a huge Write) takes the slow path. */
export const CHECK_BODY_LIMIT = 1024 * 1024;

const loaders = new WeakMap<RelayServices, ReturnType<typeof cachedPolicyLoader>>();

/** Publishes the call's `running` live event, as `hooks/report PreToolUse` would have (REPORT-4). */
function reportStart(services: RelayServices, payload: Record<string, unknown>, env: Env, at: string | undefined): void {
  try {
    const happening = translate({ at: at && /^\d{1,16}$/.test(at) ? Number(at) : Math.floor(Date.now() * 1000), hook: 'PreToolUse', payload }, env);
    if (happening) ingestLive(services, happening);
  } catch { /* the live view is best effort: the decision still follows */ }
}

export async function postPermissionCheck(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  // Only the hook's own client calls this: a browser page (it sends Origin or Sec-Fetch-*) never may,
  // whatever it knows (FAST-4).
  if (req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined || !tokenMatches(bearerToken(req), hookToken)) {
    req.resume();
    throw new CommandrError('E_UNAUTHORIZED', 'the permission fast path needs the hook credential (Authorization: Bearer <dataDir/hook-token>) and takes no browser request');
  }
  const body = await readBody(req, CHECK_BODY_LIMIT);
  const { env, payloadStart } = readFields(body, DECISION_ENV_KEYS);
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8', payloadStart));
  } catch {
    throw new CommandrError('E_BAD_FRAME', 'permission check: the payload after the environment fields is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new CommandrError('E_BAD_FRAME', 'permission check: the payload is not a JSON object');
  for (const key of Object.keys(env)) if (env[key] === '') delete env[key];
  // The relay's own data dir is the hook's $COMMANDR_HOME: the hook found this relay's credential there.
  env.COMMANDR_HOME = services.dataDir;
  // The call's start is reported here, so PreToolUse needs no second hook (REPORT-4).
  reportStart(services, payload as Record<string, unknown>, env, readFields(body, ['AT']).env.AT);
  let loader = loaders.get(services);
  if (!loader) loaders.set(services, (loader = cachedPolicyLoader()));
  const outcome = decidePermission(payload as Record<string, unknown>, env, env.PWD || '/', loader);
  // Not a tool call, or nothing decided here: the node hook judges (and asks a person) as before.
  if (!outcome || outcome.kind === 'person' || (outcome.kind === 'answer' && outcome.decision === 'ask')) {
    sendJson(res, 202, { slow: true, why: 'a person must decide, or the policy cannot be read here: the permission hook runs its slow path' });
    return;
  }
  const text = outcome.kind === 'answer' ? hookAnswer(outcome.decision, outcome.reason) : '';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}
