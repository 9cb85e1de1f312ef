// Posts one live event (schema v1) to the relay's `POST /api/events`. Never throws,
// never waits longer than the timeout: a hook must not slow or break the agent.
import * as http from 'node:http';
import * as https from 'node:https';
import { LiveEvent } from '../../protocol/live-events';
import { type Env, hookToken, relayUrl } from './env';

export const POST_TIMEOUT_MS = 300;

export type PostResult = 'sent' | 'invalid' | 'no-token' | 'failed';

/** Validates and sends; resolves with what happened, never rejects. */
export function postLive(event: LiveEvent, env: Env = process.env, timeoutMs = POST_TIMEOUT_MS): Promise<PostResult> {
  const checked = LiveEvent.safeParse(event);
  if (!checked.success) return Promise.resolve('invalid');
  const token = hookToken(env);
  if (!token) return Promise.resolve('no-token');
  let url: URL;
  try {
    url = new URL('/api/events', relayUrl(env));
  } catch {
    return Promise.resolve('failed');
  }
  const body = Buffer.from(JSON.stringify(checked.data), 'utf8');
  return new Promise((resolve) => {
    const done = (result: PostResult) => {
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
      done(res.statusCode !== undefined && res.statusCode < 300 ? 'sent' : 'failed');
    });
    request.on('error', () => done('failed'));
    request.end(body);
  });
}

/** The passthrough fields every event carries (`agent`, `task`). */
export function passthrough(env: Env, task: string | undefined): Pick<LiveEvent, 'agent' | 'task'> {
  const agent = env.COMMANDR_AGENT_ID?.trim().slice(0, 256) || undefined;
  const fromRelay = env.COMMANDR_TASK?.trim() || undefined;
  return { agent, task: (task ?? fromRelay)?.slice(0, 128) };
}
