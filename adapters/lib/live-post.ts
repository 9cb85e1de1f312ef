// Posts one live event (schema v1) to the relay's `POST /api/events`, once. Never throws,
// never waits longer than the timeout: a hook must not slow or break the agent.
import * as http from 'node:http';
import * as https from 'node:https';
import { LiveEvent } from '../../protocol/live-events';
import { type Env, hookToken, relayUrl } from './env';

export const POST_TIMEOUT_MS = 300;
/** How long a post nobody waits for (the poster, a detached hook's queue) gives a slow relay before it tries again (LIVE-DELIVER-2). */
export const BACKGROUND_TIMEOUT_MS = 10_000;

/**
 * `sent`: the relay acknowledged it. `failed`: no answer in time, a reset, or a 5xx: the relay
 * may be slow, so the event is tried again (LIVE-DELIVER-1). `unreachable`: no relay runs
 * here as far as a hook can tell (no trusted URL, or the connection refused): there is nobody
 * to tell. `rejected`, `invalid`, `no-token`: sending it again would not help.
 */
export type PostResult = 'sent' | 'rejected' | 'invalid' | 'no-token' | 'failed' | 'unreachable';

/**
 * Validates and sends once; resolves with what happened, never rejects. Nothing is skipped
 * because an earlier post was slow (LIVE-DELIVER-3): a caller that must not lose the event
 * queues it (`LiveOutbox`, live-queue.ts) and tries again on `failed`.
 */
export function postLive(event: LiveEvent, env: Env = process.env, timeoutMs = POST_TIMEOUT_MS): Promise<PostResult> {
  const checked = LiveEvent.safeParse(event);
  if (!checked.success) return Promise.resolve('invalid');
  const token = hookToken(env);
  if (!token) return Promise.resolve('no-token');
  const base = relayUrl(env); // undefined: no relay this hook may hand the credential to (HOOKCRED-1)
  if (!base) return Promise.resolve('unreachable');
  let url: URL;
  try {
    url = new URL('/api/events', base);
  } catch {
    return Promise.resolve('unreachable');
  }
  const body = Buffer.from(JSON.stringify(checked.data), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${token}` },
      // A local relay may use a self-signed certificate; the bearer token is the credential.
      rejectUnauthorized: false,
    });
    const timer = setTimeout(() => { request.destroy(); done('failed'); }, timeoutMs);
    request.on('response', (res) => {
      res.resume();
      const status = res.statusCode ?? 500;
      done(status < 300 ? 'sent' : status >= 500 || status === 429 ? 'failed' : 'rejected');
    });
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'unreachable' : 'failed'));
    request.end(body);
  });
}

/** The passthrough fields every event carries (`agent`, `task`). */
export function passthrough(env: Env, task: string | undefined): Pick<LiveEvent, 'agent' | 'task'> {
  const agent = env.COMMANDR_AGENT_ID?.trim().slice(0, 256) || undefined;
  const fromRelay = env.COMMANDR_TASK?.trim() || undefined;
  return { agent, task: (task ?? fromRelay)?.slice(0, 128) };
}
