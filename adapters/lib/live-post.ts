// Posts one live event (schema v1) to the relay's `POST /api/events`. Never throws,
// never waits longer than the timeout: a hook must not slow or break the agent.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { LiveEvent } from '../../protocol/live-events';
import { type Env, commandrHome, hookToken, relayUrl } from './env';

export const POST_TIMEOUT_MS = 300;
/** After a failed post, hooks skip posting for this long: a hung relay costs one timeout, not one per hook. */
export const BACKOFF_MS = 5000;

export type PostResult = 'sent' | 'rejected' | 'invalid' | 'no-token' | 'failed' | 'skipped';

const downMarker = (env: Env): string => path.join(commandrHome(env), 'hook-state', 'relay-down');

function recentlyDown(env: Env): boolean {
  try {
    return Date.now() - fs.statSync(downMarker(env)).mtimeMs < BACKOFF_MS;
  } catch {
    return false;
  }
}

function markDown(env: Env): void {
  const file = downMarker(env);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${Math.floor(Date.now() / 1000)}\n`); // epoch seconds: hooks/report reads it without a process
  } catch { /* best effort */ }
}

/**
 * Validates and sends; resolves with what happened, never rejects. A hook the agent waits for
 * skips the post while the relay is marked down; the background poster (`background`), which
 * nobody waits for, tries anyway, so a relay that was only slow for a moment loses nothing.
 */
export function postLive(event: LiveEvent, env: Env = process.env, timeoutMs = POST_TIMEOUT_MS, background = false): Promise<PostResult> {
  const checked = LiveEvent.safeParse(event);
  if (!checked.success) return Promise.resolve('invalid');
  const token = hookToken(env);
  if (!token) return Promise.resolve('no-token');
  if (!background && recentlyDown(env)) return Promise.resolve('skipped');
  const base = relayUrl(env); // undefined: no relay this hook may hand the credential to (HOOKCRED-1)
  if (!base) return Promise.resolve('failed');
  let url: URL;
  try {
    url = new URL('/api/events', base);
  } catch {
    return Promise.resolve('failed');
  }
  const body = Buffer.from(JSON.stringify(checked.data), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result === 'failed') markDown(env);
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
      done(res.statusCode !== undefined && res.statusCode < 300 ? 'sent' : 'rejected');
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
