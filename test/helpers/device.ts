// Test device: a real ECDSA P-256 key pair, paired through `POST /api/pair`
// with a code created on disk, and an authenticated `ws` socket that signs
// actions the way the app does. Every relay test talks to the relay through this.
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import WebSocket from 'ws';
import { createPairingCode } from '../../relay/devices/pairing';
import { WS_PATH } from '../../protocol/wire/http';
import { actionMessage, authMessage } from '../../protocol/wire/signing';
import { isActionType } from '../../protocol/wire/frames';
import type { DeviceView } from '../../protocol/wire/views';
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';

/** What the helper needs of a running relay (`createRelay()`'s result fits). */
export interface RelayAddress {
  /** http(s)://host:port */
  url: string;
  dataDir: string;
  /** The relay's own origin; sent as the socket's Origin header. Defaults to `url`. */
  origin?: string;
  /** For a relay on https with a self-signed certificate: the certificate to trust. */
  ca?: Buffer | string;
}

export interface TestDevice {
  id: string;
  name: string;
  privateKey: crypto.KeyObject;
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
}

/** An `error` frame as a rejection: `.code` and `.error.code` both carry the code. */
export class WireFrameError extends Error {
  readonly type = 'error';
  readonly code: string;
  constructor(readonly frame: ServerFrameOf<'error'>) {
    super(`${frame.error.code}: ${frame.error.message}`);
    this.code = frame.error.code;
  }
  get id(): string | undefined {
    return this.frame.id;
  }
  get error(): { code: string; message: string } {
    return this.frame.error;
  }
}

export function newKeyPair(): Pick<TestDevice, 'privateKey' | 'publicJwk'> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  return { privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
}

/** base64url ECDSA P-256/SHA-256 signature in IEEE-P1363 form, as WebCrypto makes it. */
export function sign(privateKey: crypto.KeyObject, message: string): string {
  return crypto.sign('sha256', Buffer.from(message), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}

export function newActionId(): string {
  return crypto.randomBytes(12).toString('base64url');
}

/** Adds `ts` (now, unless given) and `sig` to an action frame for `device`. */
export function signAction<F extends { type: string }>(device: TestDevice, frame: F & { ts?: number }): F & { ts: number; sig: string } {
  const unsigned = { ...frame, ts: frame.ts ?? Date.now() } as Record<string, unknown>;
  delete unsigned.sig;
  return { ...(unsigned as F & { ts: number }), sig: sign(device.privateKey, actionMessage(device.id, unsigned)) };
}

/** Pairs a new device with the relay using a fresh code from its data dir. */
export async function pairDevice(relay: RelayAddress, name = 'test phone'): Promise<TestDevice> {
  const keys = newKeyPair();
  const { code } = createPairingCode(relay.dataDir);
  const res = await postJson(relay, '/api/pair', { code, name, publicKey: keys.publicJwk });
  const body = JSON.parse(res.body) as { device?: DeviceView; error?: { code: string; message: string } };
  if (res.status !== 201 || !body.device) throw new Error(`pairing failed: ${res.status} ${res.body}`);
  return { id: body.device.id, name: body.device.name, ...keys };
}

/** POSTs JSON to the relay (trusting `relay.ca` on https). */
export function postJson(relay: RelayAddress, urlPath: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  const client = relay.url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      `${relay.url}${urlPath}`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }, ...(relay.ca ? { ca: relay.ca } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

export function wsUrl(relay: RelayAddress): string {
  return `${relay.url.replace(/^http/, 'ws')}${WS_PATH}`;
}

type Frame = ServerFrame & Record<string, unknown>;

export interface ConnectOptions {
  /** Origin header; default the relay's origin. `null` sends none. */
  origin?: string | null;
  /** Stop after the challenge (no auth.response sent). */
  skipAuth?: boolean;
  /** Extra `ws` client options (e.g. `rejectUnauthorized: false` for TLS tests). */
  ws?: WebSocket.ClientOptions;
}

/** An open socket; frames received are queued until a `next()` takes them. */
export class DeviceClient {
  /** Every frame received, in order (including ones `next()` consumed). */
  readonly received: Frame[] = [];
  private queue: Frame[] = [];
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private pending = new Map<string, { resolve: (f: ServerFrameOf<'ack'>) => void; reject: (e: Error) => void }>();
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(
    readonly ws: WebSocket,
    readonly device: TestDevice | undefined,
  ) {
    ws.on('message', (data) => this.onFrame(JSON.parse(data.toString()) as Frame));
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    void this.closed.then(() => {
      for (const p of this.pending.values()) p.reject(new Error('socket closed'));
      this.pending.clear();
    });
  }

  /** Sends a read or an action (signed, with a fresh id unless given) and resolves with its `ack`. */
  request(frame: { type: string; id?: string; [k: string]: unknown }): Promise<ServerFrameOf<'ack'>> {
    const withId: { type: string; id: string; [k: string]: unknown } = { ...frame, id: frame.id ?? newActionId() };
    const ready = isActionType(withId.type) && withId.sig === undefined ? signAction(this.requireDevice(), withId) : withId;
    return this.requestRaw(ready);
  }

  /** Sends `frame` exactly as given and resolves with the ack of its id. */
  requestRaw(frame: { id: string; [k: string]: unknown }): Promise<ServerFrameOf<'ack'>> {
    return new Promise((resolve, reject) => {
      this.pending.set(frame.id, { resolve, reject });
      this.send(frame);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  /** Resolves with the next frame of `type` (matching `predicate`), queued or yet to come. */
  next<K extends ServerFrame['type']>(type: K, predicate?: (f: ServerFrameOf<K>) => boolean, timeoutMs = 30_000): Promise<ServerFrameOf<K>> {
    const match = (f: Frame) => f.type === type && (!predicate || predicate(f as ServerFrameOf<K>));
    return this.waitFor(match, `${type} frame`, timeoutMs) as Promise<ServerFrameOf<K>>;
  }

  /** Resolves with the next frame `match` accepts, queued or yet to come. */
  waitFor(match: (f: Frame) => boolean, what = 'matching frame', timeoutMs = 30_000): Promise<Frame> {
    const index = this.queue.findIndex(match);
    if (index >= 0) return Promise.resolve(this.queue.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve: (f: Frame) => { clearTimeout(timer); resolve(f); } };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Drops queued frames (e.g. the initial snapshots) so `next()` waits for new ones. */
  clear(): void {
    this.queue = [];
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }

  private requireDevice(): TestDevice {
    if (!this.device) throw new Error('this client has no device to sign with');
    return this.device;
  }

  private onFrame(frame: Frame): void {
    this.received.push(frame);
    if (this.received.length > 10_000) this.received.splice(0, 5_000);
    const id = typeof frame.id === 'string' ? frame.id : undefined;
    if (id && (frame.type === 'ack' || frame.type === 'error') && this.pending.has(id)) {
      const p = this.pending.get(id)!;
      this.pending.delete(id);
      if (frame.type === 'ack') p.resolve(frame as ServerFrameOf<'ack'>);
      else p.reject(new WireFrameError(frame as ServerFrameOf<'error'>));
      return;
    }
    const waiter = this.waiters.find((w) => w.match(frame));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(frame);
      return;
    }
    this.queue.push(frame);
    if (this.queue.length > 10_000) this.queue.splice(0, 5_000);
  }
}

/** Opens a socket and, unless `skipAuth`, authenticates as `device` (resolves after `auth.ok`). */
export async function openSocket(relay: RelayAddress, device: TestDevice | undefined, options: ConnectOptions = {}): Promise<DeviceClient> {
  const origin = options.origin === undefined ? relay.origin ?? relay.url : options.origin;
  const ws = new WebSocket(wsUrl(relay), { ...(origin === null ? {} : { origin }), ...(relay.ca ? { ca: relay.ca } : {}), ...options.ws });
  const client = new DeviceClient(ws, device);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  if (options.skipAuth || !device) return client;
  const challenge = await client.next('auth.challenge');
  client.send({ type: 'auth.response', device: device.id, sig: sign(device.privateKey, authMessage(challenge.nonce)) });
  const answer = await client.waitFor((f) => f.type === 'auth.ok' || f.type === 'error', 'auth.ok');
  if (answer.type === 'error') throw new WireFrameError(answer as ServerFrameOf<'error'>);
  return client;
}

/** Pairs a new device and opens an authenticated socket for it. */
export async function connectDevice(relay: RelayAddress, name?: string, options?: ConnectOptions): Promise<DeviceClient> {
  return openSocket(relay, await pairDevice(relay, name), options);
}
