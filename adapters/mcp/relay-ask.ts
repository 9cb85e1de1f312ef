// The relay half of `ask` and `request_approval` (ASK-1, ACTAPPROVE-1, FAST-5): `POST
// /api/questions` with the hook credential, long-polled until the person answers or the
// request expires, through the permission hook's own client (adapters/lib/long-poll.ts): a
// connection dropped after the relay was reached is retried with the same id until the
// deadline; a relay never reached, one that refuses (no paired device), or one that does not
// acknowledge within 4 s (hung) is reported at once so the agent can go on. A cancelled call
// (MCP `notifications/cancelled`, or the server closing) stops waiting at once and tells the
// relay with `POST /api/questions/cancel`, so the phone stops showing it (ASK-8).
import type { QuestionAsk, QuestionView } from '../../protocol/wire/questions';
import { QuestionResult } from '../../protocol/wire/questions';
import { type Env, hookToken, relayUrl } from '../lib/env';
import { ACK_TIMEOUT_MS, longPoll, post, type Reading } from '../lib/long-poll';

export type RelayOutcome = { kind: 'settled'; view: QuestionView } | { kind: 'unavailable'; reason: string } | { kind: 'cancelled' };

/** How long telling the relay of a cancel may take: the relay withdraws it anyway once the asker is gone for its grace period. */
export const CANCEL_BUDGET_MS = 2000;

/** Cancels still being told to the relay; the server waits for them before it exits. */
const cancelling = new Set<Promise<unknown>>();

export async function askRelay(ask: QuestionAsk, env: Env, signal?: AbortSignal): Promise<RelayOutcome> {
  const token = hookToken(env);
  if (!token) return { kind: 'unavailable', reason: 'no commandr relay has run on this machine (no hook credential)' };
  const base = relayUrl(env);
  if (!base) return { kind: 'unavailable', reason: 'the commandr relay is not running (no relay.json of a running relay, and no usable COMMANDR_URL)' };
  let url: URL;
  try {
    url = new URL('/api/questions', base);
  } catch {
    return { kind: 'unavailable', reason: `the relay URL ${base} is not a URL` };
  }
  // Told at the abort itself, so a server closing (which aborts every call) can wait for it.
  const onAbort = () => tellCancelled(new URL('/api/questions/cancel', url), token, ask.key);
  signal?.addEventListener('abort', onAbort, { once: true });
  const end = await longPoll(url, token, { ...ask }, ask.timeoutMs, read, signal).finally(() => signal?.removeEventListener('abort', onAbort));
  if (end.kind === 'cancelled') return { kind: 'cancelled' };
  if (end.kind === 'done') return end.value;
  if (end.kind === 'unreachable') return { kind: 'unavailable', reason: `the relay at ${url.origin} cannot be reached` };
  if (end.kind === 'hung') return { kind: 'unavailable', reason: `the relay at ${url.origin} took the connection but did not answer within ${ACK_TIMEOUT_MS / 1000} s (is it stopped?)` };
  return { kind: 'unavailable', reason: `the relay at ${url.origin} went away and did not come back before the timeout` };
}

/** Posts the cancel without holding up the tool; `cancelsSent` waits for it. */
function tellCancelled(url: URL, token: string, key: string): void {
  const sent = post(url, token, { key }, CANCEL_BUDGET_MS).finally(() => cancelling.delete(sent));
  cancelling.add(sent);
}

/** Resolves once every cancel begun so far has reached the relay or given up (each within CANCEL_BUDGET_MS). */
export async function cancelsSent(): Promise<void> {
  await Promise.all([...cancelling]);
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
