// The long-poll client the hooks and the MCP server share to ask the relay for a person's
// answer (PERM-HOOK-3, GUARD-9, ASK-1, FAST-5): one POST with the hook credential whose body
// carries `ackBy` (send time + 4 s); connected, the relay must acknowledge (send the response
// headers) within 4 s or it counts as hung; a connection dropped after the relay was reached
// is retried with the same body until the deadline; an abort signal (the MCP call was
// cancelled, ASK-8) ends it at once. Each caller reads the answer its own way.
import * as http from 'node:http';
import * as https from 'node:https';

export const CONNECT_TIMEOUT_MS = 800;
/** How long a connected relay has to acknowledge (send headers for) a request before it counts as hung (GUARD-9). */
export const ACK_TIMEOUT_MS = 4000;
export const RETRY_MS = 200;
/** Extra time past the request's own timeout before the client gives up on the relay. */
export const GRACE_MS = 3000;

/** What one POST came to: a whole response, or why there is none. */
export type Exchange = { kind: 'response'; status: number; text: string } | { kind: 'unreachable' } | { kind: 'dropped' } | { kind: 'hung' } | { kind: 'cancelled' };

/** How the caller reads a response: a final result, `retry` (the relay went away mid-answer), or `stop` (refused). */
export type Reading<T> = { kind: 'done'; value: T } | { kind: 'retry' } | { kind: 'stop'; value: T };

export type PollEnd<T> = { kind: 'done'; value: T } | { kind: 'unreachable' } | { kind: 'hung' } | { kind: 'deadline' } | { kind: 'cancelled' };

/**
 * Posts `body` (plus `ackBy`) until `read` takes a response or the deadline (`timeoutMs` + grace)
 * passes. Unreachable before the relay was ever reached, or hung, ends at once; so does `signal`
 * aborting (the connection is closed, nothing more is sent).
 */
export async function longPoll<T>(url: URL, token: string, body: Record<string, unknown>, timeoutMs: number, read: (status: number, text: string) => Reading<T>, signal?: AbortSignal): Promise<PollEnd<T>> {
  const deadline = Date.now() + timeoutMs + GRACE_MS;
  let reached = false;
  while (Date.now() < deadline) {
    if (signal?.aborted) return { kind: 'cancelled' };
    const exchange = await post(url, token, body, deadline - Date.now(), signal);
    if (exchange.kind === 'cancelled') return { kind: 'cancelled' };
    if (exchange.kind === 'hung') return { kind: 'hung' };
    if (exchange.kind === 'unreachable' && !reached) return { kind: 'unreachable' };
    if (exchange.kind === 'response') {
      const reading = read(exchange.status, exchange.text);
      if (reading.kind !== 'retry') return { kind: 'done', value: reading.value };
    }
    reached = true;
    await pause(RETRY_MS, signal);
  }
  return { kind: 'deadline' };
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function post(url: URL, token: string, value: Record<string, unknown>, budgetMs: number, signal?: AbortSignal): Promise<Exchange> {
  // The request says when this client stops waiting for the relay to take it (GUARD-9): no later
  // than the client gives up, since its ack timer starts at connect, after this.
  const body = Buffer.from(JSON.stringify({ ...value, ackBy: Date.now() + ACK_TIMEOUT_MS }), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const done = (exchange: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(ackTimer);
      clearTimeout(budgetTimer);
      signal?.removeEventListener('abort', onAbort);
      request.destroy();
      resolve(exchange);
    };
    const onAbort = () => done({ kind: 'cancelled' });
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
        // Connected but no headers: the relay is hung (e.g. stopped); give up.
        ackTimer = setTimeout(() => done({ kind: 'hung' }), ACK_TIMEOUT_MS);
      };
      if (!socket.connecting) onConnect();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', onConnect);
    });
    request.on('response', (res) => {
      clearTimeout(ackTimer);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ kind: 'response', status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done({ kind: 'dropped' }));
    });
    request.on('error', () => done({ kind: connected ? 'dropped' : 'unreachable' }));
    if (signal?.aborted) return done({ kind: 'cancelled' });
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
