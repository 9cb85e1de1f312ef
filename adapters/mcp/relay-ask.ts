// The relay half of `ask` and `request_approval` (ASK-1, ACTAPPROVE-1): `POST
// /api/questions` with the hook credential, long-polled until the person answers
// or the request expires. A connection dropped after the relay was reached is
// retried with the same id until the deadline; a relay never reached, or one that
// refuses (no paired device), is reported at once so the agent can go on.
import * as http from 'node:http';
import * as https from 'node:https';
import type { QuestionAsk, QuestionView } from '../../protocol/wire/questions';
import { QuestionResult } from '../../protocol/wire/questions';
import { type Env, hookToken, relayUrl } from '../lib/env';

const CONNECT_TIMEOUT_MS = 800;
const RETRY_MS = 200;
const GRACE_MS = 3000;

export type RelayOutcome = { kind: 'settled'; view: QuestionView } | { kind: 'unavailable'; reason: string };
type Attempt = RelayOutcome | { kind: 'dropped' } | { kind: 'unreachable' };

export async function askRelay(ask: QuestionAsk, env: Env): Promise<RelayOutcome> {
  const token = hookToken(env);
  if (!token) return { kind: 'unavailable', reason: 'no commandr relay has run on this machine (no hook credential)' };
  let url: URL;
  try {
    url = new URL('/api/questions', relayUrl(env));
  } catch {
    return { kind: 'unavailable', reason: `the relay URL ${relayUrl(env)} is not a URL` };
  }
  const deadline = Date.now() + ask.timeoutMs + GRACE_MS;
  let reached = false;
  while (Date.now() < deadline) {
    const attempt = await post(url, token, ask, deadline - Date.now());
    if (attempt.kind === 'settled' || attempt.kind === 'unavailable') return attempt;
    if (attempt.kind === 'unreachable' && !reached) return { kind: 'unavailable', reason: `the relay at ${url.origin} cannot be reached` };
    reached = true;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  return { kind: 'unavailable', reason: `the relay at ${url.origin} went away and did not come back before the timeout` };
}

function post(url: URL, token: string, ask: QuestionAsk, budgetMs: number): Promise<Attempt> {
  const body = Buffer.from(JSON.stringify(ask), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const done = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(budgetTimer);
      request.destroy();
      resolve(attempt);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${token}` },
      rejectUnauthorized: false, // a local relay may use a self-signed certificate; the token is the credential
      agent: false,
    });
    const connectTimer = setTimeout(() => done({ kind: 'unreachable' }), CONNECT_TIMEOUT_MS);
    const budgetTimer = setTimeout(() => done({ kind: 'dropped' }), Math.max(0, budgetMs));
    request.on('socket', (socket) => {
      const onConnect = () => { connected = true; clearTimeout(connectTimer); };
      if (!socket.connecting) onConnect();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', onConnect);
    });
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(parse(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', () => done({ kind: 'dropped' }));
    });
    request.on('error', () => done({ kind: connected ? 'dropped' : 'unreachable' }));
    request.end(body);
  });
}

function parse(status: number, text: string): Attempt {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return status === 502 ? { kind: 'dropped' } : { kind: 'unavailable', reason: `the relay answered HTTP ${status}` };
  }
  if (status === 200) {
    const parsed = QuestionResult.safeParse(json);
    return parsed.success ? { kind: 'settled', view: parsed.data.request } : { kind: 'unavailable', reason: 'the relay answered something that is not a question result' };
  }
  const error = (json as { error?: { code?: unknown; message?: unknown } }).error;
  return { kind: 'unavailable', reason: typeof error?.message === 'string' ? error.message : `the relay answered HTTP ${status}` };
}
