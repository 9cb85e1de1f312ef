// The relay half of a permission hook (PERM-HOOK-n): `POST /api/permissions` and
// long-poll until a person decides. Unreachable at first → undefined within a
// second (the agent falls back to its own prompt; never an automatic allow). A
// dropped connection later is retried with the same key until the deadline,
// which then denies with a reason the agent can read.
import * as http from 'node:http';
import * as https from 'node:https';
import type { PermissionAnswer, PermissionAsk } from '../../protocol/wire/http';
import { type Env, hookToken, relayUrl } from './env';

export const CONNECT_TIMEOUT_MS = 800;
/** How long a connected relay has to acknowledge (send headers for) a request before it counts as hung (GUARD-9). */
export const ACK_TIMEOUT_MS = 4000;
const RETRY_MS = 200;
/** Extra time past the request's own timeout before the hook gives up on the relay. */
const GRACE_MS = 3000;

type Attempt = { kind: 'answer'; answer: PermissionAnswer } | { kind: 'unreachable' } | { kind: 'dropped' } | { kind: 'refused' } | { kind: 'hung' };

/** Why a call that needs a person is refused when no phone can be asked (GUARD-6, GUARD-7). */
export function unreachableReason(why: string): string {
  return `Commandr's policy says a person must decide this, and no one can be asked (${why}), so it was denied. Start the relay (\`commandr serve\`) and pair a phone, or ask the person at this machine.`;
}

export function timeoutAnswer(timeoutMs: number): PermissionAnswer {
  return {
    decision: 'deny', by: null,
    reason: `No one answered on the phone within ${Math.round(timeoutMs / 1000)} s; the request was denied. Ask the person to allow it, or continue without this step.`,
  };
}

/** The person's answer, or undefined when the relay cannot be asked (no decision). */
export async function askRelay(ask: PermissionAsk, env: Env = process.env): Promise<PermissionAnswer | undefined> {
  const token = hookToken(env);
  if (!token) return undefined;
  let url: URL;
  try {
    url = new URL('/api/permissions', relayUrl(env));
  } catch {
    return undefined;
  }
  const timeoutMs = ask.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs + GRACE_MS;
  let reached = false;
  while (Date.now() < deadline) {
    const attempt = await post(url, token, ask, deadline - Date.now());
    if (attempt.kind === 'answer') return attempt.answer;
    if (attempt.kind === 'refused' || attempt.kind === 'hung') return undefined;
    if (attempt.kind === 'unreachable' && !reached) return undefined;
    reached = true;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  return timeoutAnswer(timeoutMs);
}

function post(url: URL, token: string, ask: PermissionAsk, budgetMs: number): Promise<Attempt> {
  // The request says when this hook stops waiting for the relay to take it (GUARD-9): no later
  // than the hook gives up, since its ack timer starts at connect, after this.
  const body = Buffer.from(JSON.stringify({ ...ask, ackBy: Date.now() + ACK_TIMEOUT_MS }), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const done = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(ackTimer);
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
    let connected = false;
    let ackTimer: NodeJS.Timeout | undefined;
    const connectTimer = setTimeout(() => done({ kind: 'unreachable' }), CONNECT_TIMEOUT_MS);
    const budgetTimer = setTimeout(() => done({ kind: 'dropped' }), Math.max(0, budgetMs));
    request.on('socket', (socket) => {
      const onConnect = () => {
        connected = true;
        clearTimeout(connectTimer);
        // Connected but no headers: the relay is hung (e.g. stopped); give up and fail closed.
        ackTimer = setTimeout(() => done({ kind: 'hung' }), ACK_TIMEOUT_MS);
      };
      if (!socket.connecting) onConnect();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', onConnect);
    });
    request.on('response', (res) => {
      clearTimeout(ackTimer);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(parseAnswer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', () => done({ kind: 'dropped' }));
    });
    request.on('error', () => done({ kind: connected ? 'dropped' : 'unreachable' }));
    request.end(body);
  });
}

function parseAnswer(status: number, text: string): Attempt {
  if (status !== 200) return status === 502 ? { kind: 'dropped' } : { kind: 'refused' };
  try {
    const value = JSON.parse(text) as Partial<PermissionAnswer>;
    if ((value.decision === 'allow' || value.decision === 'deny') && typeof value.reason === 'string') {
      return { kind: 'answer', answer: { decision: value.decision, reason: value.reason, by: typeof value.by === 'string' ? value.by : null } };
    }
  } catch { /* fall through */ }
  return { kind: 'refused' };
}
