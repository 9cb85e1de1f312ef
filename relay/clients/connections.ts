// Open sockets (WIRE-n, LIVE-n): per-socket state, heartbeat (ping every 30 s,
// terminate on a missed pong), and backpressure — a client whose send buffer is
// over 4 MiB loses ephemeral frames and is told so with `relay.lagged`.
import WebSocket from 'ws';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { ClientInfo, SendOptions } from '../context';

export const LAG_BYTES = 4 * 1024 * 1024;
/** A client this far behind on durable frames is cut off; it resumes from its cursor. */
export const CUTOFF_BYTES = 64 * 1024 * 1024;
export const HEARTBEAT_MS = 30_000;

export class Connection implements ClientInfo {
  device: { id: string; name: string } = { id: '', name: '' };
  authed = false;
  visible = true;
  readonly state = new Map<string, unknown>();
  alive = true;
  private dropped = 0;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly ws: WebSocket,
    readonly remote: string,
  ) {}

  /** Sends unless the socket is gone; ephemeral frames are dropped while the client lags.
   *  `encoded` is the frame already serialised, so a broadcast encodes once, not per client. */
  send(frame: ServerFrame, options: SendOptions = {}, encoded?: Buffer): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > LAG_BYTES) {
      if (options.ephemeral) return this.drop();
      if (this.ws.bufferedAmount > CUTOFF_BYTES) {
        this.ws.terminate();
        return false;
      }
    }
    this.flushLag();
    this.ws.send(encoded ?? JSON.stringify(frame), { binary: false });
    return true;
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
    this.dispose();
  }

  dispose(): void {
    if (this.lagTimer) clearInterval(this.lagTimer);
    this.lagTimer = undefined;
  }

  private drop(): false {
    this.dropped += 1;
    // Tell the client as soon as its buffer drains, even if nothing else is sent.
    this.lagTimer ??= setInterval(() => {
      if (this.ws.readyState !== WebSocket.OPEN) return this.dispose();
      if (this.ws.bufferedAmount <= LAG_BYTES) this.flushLag();
    }, 100);
    return false;
  }

  private flushLag(): void {
    if (this.dropped === 0) return;
    const dropped = this.dropped;
    this.dropped = 0;
    this.dispose();
    this.ws.send(JSON.stringify({ type: 'relay.lagged', dropped } satisfies ServerFrame));
  }
}

export class ConnectionSet {
  private all = new Set<Connection>();
  private heartbeat: NodeJS.Timeout | undefined;

  add(connection: Connection): void {
    this.all.add(connection);
    connection.ws.on('pong', () => {
      connection.alive = true;
    });
  }

  delete(connection: Connection): void {
    connection.dispose();
    this.all.delete(connection);
  }

  authed(): Connection[] {
    return [...this.all].filter((c) => c.authed);
  }

  broadcast(frame: ServerFrame, filter?: (client: ClientInfo) => boolean, options?: SendOptions): void {
    let encoded: Buffer | undefined;
    for (const c of this.all) {
      if (!c.authed || (filter && !filter(c))) continue;
      encoded ??= Buffer.from(JSON.stringify(frame));
      c.send(frame, options, encoded);
    }
  }

  sendToDevice(deviceId: string, frame: ServerFrame, options?: SendOptions): void {
    this.broadcast(frame, (c) => c.device.id === deviceId, options);
  }

  /** Closes every socket of a device at once (revocation). */
  closeDevice(deviceId: string, reason: string): void {
    for (const c of this.all) if (c.device.id === deviceId) c.close(1008, reason);
  }

  startHeartbeat(intervalMs = HEARTBEAT_MS): void {
    this.heartbeat = setInterval(() => {
      for (const c of this.all) {
        if (!c.alive) {
          c.ws.terminate();
          continue;
        }
        c.alive = false;
        c.ws.ping();
      }
    }, intervalMs);
    this.heartbeat.unref();
  }

  closeAll(code: number, reason: string): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const c of this.all) c.close(code, reason);
  }

  get size(): number {
    return this.all.size;
  }
}
