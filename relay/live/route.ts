// `POST /api/events` (LIVE-n): an adapter's hook posts one live event with the
// hook credential; it is validated, kept in the bounded store and broadcast as
// an ephemeral `live.event` (never written to a bus).
import type * as http from 'node:http';
import { LiveEvent } from '../../protocol/live-events';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { bearerToken, readJson, sendJson } from '../http/respond';
import { tokenMatches } from './hook-token';

export const LIVE_BODY_LIMIT = 64 * 1024;

export async function postLiveEvent(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (!tokenMatches(bearerToken(req), hookToken)) {
    req.resume();
    throw new CommandrError('E_UNAUTHORIZED', 'live events need the hook credential (Authorization: Bearer <dataDir/hook-token>)');
  }
  const parsed = LiveEvent.safeParse(await readJson(req, LIVE_BODY_LIMIT));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CommandrError('E_BAD_FRAME', `live event: ${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`);
  }
  const stored = services.live.record(parsed.data);
  services.checks?.record(stored.event, stored.at);
  services.broadcast({ type: 'live.event', at: stored.at, event: stored.event }, undefined, { ephemeral: true });
  sendJson(res, 202, { ok: true });
}
