// The relay half of `ask` and `request_approval` (ASK-1, ACTAPPROVE-1, FAST-5): `POST
// /api/questions` with the hook credential, long-polled until the person answers or the
// request expires, through the permission hook's own client (adapters/lib/long-poll.ts): a
// connection dropped after the relay was reached is retried with the same id until the
// deadline; a relay never reached, one that refuses (no paired device), or one that does not
// acknowledge within 4 s (hung) is reported at once so the agent can go on.
import type { QuestionAsk, QuestionView } from '../../protocol/wire/questions';
import { QuestionResult } from '../../protocol/wire/questions';
import { type Env, hookToken, relayUrl } from '../lib/env';
import { ACK_TIMEOUT_MS, longPoll, type Reading } from '../lib/long-poll';

export type RelayOutcome = { kind: 'settled'; view: QuestionView } | { kind: 'unavailable'; reason: string };

export async function askRelay(ask: QuestionAsk, env: Env): Promise<RelayOutcome> {
  const token = hookToken(env);
  if (!token) return { kind: 'unavailable', reason: 'no commandr relay has run on this machine (no hook credential)' };
  let url: URL;
  try {
    url = new URL('/api/questions', relayUrl(env));
  } catch {
    return { kind: 'unavailable', reason: `the relay URL ${relayUrl(env)} is not a URL` };
  }
  const end = await longPoll(url, token, { ...ask }, ask.timeoutMs, read);
  if (end.kind === 'done') return end.value;
  if (end.kind === 'unreachable') return { kind: 'unavailable', reason: `the relay at ${url.origin} cannot be reached` };
  if (end.kind === 'hung') return { kind: 'unavailable', reason: `the relay at ${url.origin} took the connection but did not answer within ${ACK_TIMEOUT_MS / 1000} s (is it stopped?)` };
  return { kind: 'unavailable', reason: `the relay at ${url.origin} went away and did not come back before the timeout` };
}

function read(status: number, text: string): Reading<RelayOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return status === 502 ? { kind: 'retry' } : { kind: 'stop', value: { kind: 'unavailable', reason: `the relay answered HTTP ${status}` } };
  }
  if (status === 200) {
    const parsed = QuestionResult.safeParse(json);
    return { kind: 'done', value: parsed.success ? { kind: 'settled', view: parsed.data.request } : { kind: 'unavailable', reason: 'the relay answered something that is not a question result' } };
  }
  const error = (json as { error?: { code?: unknown; message?: unknown } }).error;
  return { kind: 'stop', value: { kind: 'unavailable', reason: typeof error?.message === 'string' ? error.message : `the relay answered HTTP ${status}` } };
}
