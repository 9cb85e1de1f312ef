// One WebSocket's life (WIRE-n, AUTH-n): challenge, authenticate, then answer
// each frame through the dispatcher. Nothing but the challenge flows before
// auth.ok; junk gets E_BAD_FRAME, an oversized frame E_TOO_LARGE and a close.
import type * as http from 'node:http';
import type * as net from 'node:net';
import type WebSocket from 'ws';
import { CommandrError } from '../../protocol/wire/errors';
import { MAX_FRAME_BYTES, type ServerFrame } from '../../protocol/wire/frames';
import type { RelayServices } from '../context';
import { authenticate, newNonce } from './auth';
import { Connection, type ConnectionSet } from './connections';
import type { Dispatcher } from './dispatch';

/** More bad frames than this within a minute closes the socket. */
export const BAD_FRAME_LIMIT = 1000;
/** Bytes a socket may send before it has authenticated (AUTH-7): its `auth.response` is about 1 KB. */
export const PREAUTH_BYTES = 64 * 1024;
/** Sockets that may wait to authenticate at once (AUTH-7); a further upgrade is refused 429. */
export const PREAUTH_SOCKETS = 64;
/** How long a refused or timed-out socket has to read its close before it is cut (AUTH-7). */
const CLOSE_GRACE_MS = 1000;

export interface SocketDeps {
  services: RelayServices;
  connections: ConnectionSet;
  dispatcher: Dispatcher;
  version: string;
}

/**
 * The sockets waiting to authenticate (AUTH-7): a count the upgrade checks, and for each socket a
 * bound on what it may send first. Without it a peer with no credential could open sockets, start
 * a 4 MiB frame on each and hold the relay's memory for as long as it liked.
 */
export class PreAuth {
  private waiting = 0;

  /** Whether one more socket may wait. */
  get full(): boolean {
    return this.waiting >= PREAUTH_SOCKETS;
  }

  /** Counts `socket` as waiting until `authed` is called or it closes; cuts it past PREAUTH_BYTES. */
  watch(socket: net.Socket): () => void {
    this.waiting++;
    let received = 0;
    let counted = true;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > PREAUTH_BYTES) socket.destroy();
    };
    const authed = () => {
      if (!counted) return;
      counted = false;
      this.waiting--;
      socket.off('data', onData);
    };
    socket.on('data', onData);
    socket.once('close', authed);
    return authed;
  }
}

/** Cuts `ws` if its peer has not finished the close it was sent within a second (AUTH-7). */
export function cutIfLingering(ws: WebSocket): void {
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

/** Closes with `code`, and cuts the socket if the peer has not finished closing within a second. */
function closeAndCut(conn: Connection, code: number, reason: string): void {
  conn.close(code, reason);
  cutIfLingering(conn.ws);
}

/** `authed`: called once the socket has authenticated (PreAuth.watch). */
export function acceptSocket(deps: SocketDeps, ws: WebSocket, req: http.IncomingMessage, authed: () => void = () => {}): void {
  const conn = new Connection(ws, req.socket.remoteAddress ?? 'unknown');
  deps.connections.add(conn);
  const nonce = newNonce();
  let answered = false;
  const timer = setTimeout(() => closeAndCut(conn, 1008, 'authentication timed out'), deps.services.options.authTimeoutMs);
  const badFrames = { count: 0, since: Date.now() };

  const fail = (error: CommandrError, id?: string) => {
    conn.ws.send(JSON.stringify({ type: 'error', ...(id ? { id } : {}), error: { code: error.code, message: error.message } } satisfies ServerFrame));
  };

  ws.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (bytes.length > MAX_FRAME_BYTES) {
      fail(new CommandrError('E_TOO_LARGE', `frame is over ${MAX_FRAME_BYTES} bytes`));
      conn.close(1009, 'frame too large');
      return;
    }
    let value: unknown;
    try {
      value = isBinary ? undefined : JSON.parse(bytes.toString('utf8'));
    } catch {
      value = undefined;
    }
    if (!conn.authed) {
      if (answered) return; // the verdict is being sent; the socket is closing
      answered = true;
      clearTimeout(timer);
      try {
        const device = authenticate(deps.services.devices, nonce, value);
        conn.device = { id: device.id, name: device.name };
        conn.authed = true;
        authed();
        deps.services.devices.touch(device.id);
        conn.send({ type: 'auth.ok', device: deps.services.devices.view(device, device.id, deps.services.push?.hasDevice?.(device.id) ?? false) });
      } catch (error) {
        fail(error instanceof CommandrError ? error : new CommandrError('E_UNAUTHORIZED', 'authentication failed'));
        closeAndCut(conn, 1008, 'unauthorized');
      }
      return;
    }
    if (value === undefined) {
      if (tooManyBad(badFrames)) conn.close(1008, 'too many bad frames');
      else fail(new CommandrError('E_BAD_FRAME', isBinary ? 'frames must be JSON text' : 'frame is not JSON'));
      return;
    }
    const caller = {
      device: conn.device,
      client: conn,
      send: (frame: ServerFrame, options?: { ephemeral?: boolean }) => void conn.send(frame, options),
    };
    void deps.dispatcher.answer(caller, value).then((reply) => {
      if (reply.type === 'error' && (reply.error.code === 'E_BAD_FRAME' || reply.error.code === 'E_BAD_ID') && tooManyBad(badFrames)) {
        conn.close(1008, 'too many bad frames');
        return;
      }
      conn.send(reply);
      if (reply.type === 'error' && reply.error.code === 'E_UNAUTHORIZED') conn.close(1008, 'unauthorized');
    });
  });

  ws.on('close', () => {
    clearTimeout(timer);
    deps.connections.delete(conn);
  });
  ws.on('error', () => conn.close(1011, 'socket error'));
  conn.send({ type: 'auth.challenge', nonce, relay: { version: deps.version } });
}

function tooManyBad(state: { count: number; since: number }): boolean {
  const now = Date.now();
  if (now - state.since > 60_000) {
    state.count = 0;
    state.since = now;
  }
  state.count += 1;
  return state.count > BAD_FRAME_LIMIT;
}
