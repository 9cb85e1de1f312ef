// RelayConnection: the app's one WebSocket to the relay — auth by device signature,
// subscribe from stored cursors, capped exponential backoff with jitter, and
// request/answer matching by id. Unknown or invalid frames are ignored, never thrown.
//
// API:
//   type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'unpaired'
//   new RelayConnection({ url, signer, cursors, onFrame, onState, WebSocketImpl?, backoff?, requestTimeoutMs?, random? })
//   .start()                      open and keep reconnecting until stop()
//   .stop()                       close for good (pending requests reject E_OFFLINE)
//   .setNetwork(online)           browser went offline/online: close now and keep retrying with backoff / reconnect now
//   .state                        current ConnectionState
//   .request(frame, {onFrame?, timeoutMs?}) → Promise<ack result>; rejects with ClientError
//        ({code,message}: the relay's error frame, or E_OFFLINE / E_TIMEOUT). `onFrame` receives
//        frames carrying the same id before the ack (task.diff.begin / chunk / end).
//   .ignoredFrames                how many frames were dropped as unknown/invalid
//   backoffDelay(failures, backoff?, random?) → ms before the next attempt
//   relaySocketUrl(origin)        → ws(s)://host/ws
import type { ActionFrame, ReadFrame, ServerFrame } from '../../protocol/wire/frames';
import type { Cursor } from '../../protocol/wire/views';
import { clientError, toClientError, type ClientError } from './errors';
import { signAuth, type Signer } from './sign';
import { loadServerFrame, serverFrameSchema } from './wire-schema';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'unpaired';

type WebSocketCtor = new (url: string) => WebSocket;

export interface RelayConnectionOptions {
  url: string;
  signer: () => Promise<Signer | null>;
  cursors: () => Record<string, Cursor>;
  onFrame: (frame: ServerFrame) => void;
  onState: (state: ConnectionState, error?: ClientError) => void;
  WebSocketImpl?: WebSocketCtor;
  backoff?: { baseMs: number; maxMs: number };
  requestTimeoutMs?: number;
  random?: () => number;
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: ClientError) => void;
  onFrame?: (frame: ServerFrame) => void;
  timer: ReturnType<typeof setTimeout>;
  timeoutMs: number;
}

/** Failed attempts in a row after which the badge says offline rather than reconnecting. */
const OFFLINE_AFTER_FAILURES = 3;
const OPEN = 1;

export class RelayConnection {
  state: ConnectionState = 'connecting'; // not known yet: the store starts the same (APP-8)
  ignoredFrames = 0;
  private ws: WebSocket | null = null;
  private running = false;
  private networkUp = true;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly pending = new Map<string, Pending>();
  private nextReadId = 0;

  constructor(private readonly opts: RelayConnectionOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  stop(): void {
    this.running = false;
    this.clearRetry();
    this.drop();
    this.setState('offline');
  }

  setNetwork(online: boolean): void {
    if (online === this.networkUp) return;
    this.networkUp = online;
    if (!online) {
      this.clearRetry();
      this.drop();
      this.setState('offline');
      this.scheduleRetry();
    } else if (this.running && this.state !== 'unpaired') {
      this.failures = 0;
      this.clearRetry();
      this.open();
    }
  }

  request(frame: ReadFrame | ActionFrame, options: { onFrame?: (f: ServerFrame) => void; timeoutMs?: number } = {}): Promise<unknown> {
    const ws = this.ws;
    if (this.state !== 'live' || !ws || ws.readyState !== OPEN) return Promise.reject(clientError('E_OFFLINE'));
    return new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.opts.requestTimeoutMs ?? 20_000;
      // A retry of the same id (the relay applies an id once) shares the answer: everyone
      // waiting on that id — another outbox flush, a second tab's retry — gets the same ack or error.
      const earlier = this.pending.get(frame.id);
      if (earlier) this.finish(frame.id);
      const entry: Pending = {
        resolve: earlier ? (value) => { earlier.resolve(value); resolve(value); } : resolve,
        reject: earlier ? (error) => { earlier.reject(error); reject(error); } : reject,
        onFrame: options.onFrame, timeoutMs, timer: this.expire(frame.id, timeoutMs),
      };
      this.pending.set(frame.id, entry);
      ws.send(JSON.stringify(frame));
    });
  }

  /** An id for reads (they need one for the answer; they are never retried). */
  readId(): string {
    this.nextReadId += 1;
    return `read-${Date.now().toString(36)}-${this.nextReadId}`;
  }

  private open(): void {
    if (!this.running) return;
    this.drop();
    if (this.failures === 0 && this.networkUp) this.setState('connecting');
    const Impl = this.opts.WebSocketImpl ?? (globalThis.WebSocket as unknown as WebSocketCtor);
    let ws: WebSocket;
    try {
      ws = new Impl(this.opts.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onmessage = (event) => {
      if (this.ws === ws) void this.receive(ws, event.data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      if (this.state !== 'unpaired') this.scheduleRetry();
    };
    ws.onerror = () => {
      /* a close event always follows; reconnect is handled there */
    };
  }

  private async receive(ws: WebSocket, data: unknown): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      this.ignoredFrames += 1;
      return;
    }
    // The schema loads in steps while the socket connects (FIRST-7); frames wait for it in order.
    let schema = serverFrameSchema();
    if (!schema) {
      schema = await loadServerFrame();
      if (this.ws !== ws) return; // dropped meanwhile
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      this.ignoredFrames += 1;
      this.settleLoose(raw);
      return;
    }
    const frame = parsed.data;
    if (frame.type === 'auth.challenge') return this.answerChallenge(ws, frame.nonce);
    if (frame.type === 'auth.ok') {
      this.failures = 0;
      this.setState('live');
      this.opts.onFrame(frame);
      this.subscribe();
      return;
    }
    if (frame.type === 'error' && !frame.id && frame.error.code === 'E_UNAUTHORIZED') {
      this.setState('unpaired', toClientError(frame.error));
      this.drop();
      return;
    }
    if (this.settle(frame)) return;
    this.opts.onFrame(frame);
  }

  private async answerChallenge(ws: WebSocket, nonce: string): Promise<void> {
    const signer = await this.opts.signer();
    if (!signer) {
      this.setState('unpaired', clientError('E_NOT_PAIRED'));
      this.drop();
      return;
    }
    const sig = await signAuth(signer.privateKey, nonce);
    if (ws.readyState === OPEN) ws.send(JSON.stringify({ type: 'auth.response', device: signer.deviceId, sig }));
  }

  private subscribe(): void {
    const frame: ReadFrame = { type: 'subscribe', id: this.readId(), cursors: this.opts.cursors() };
    // A failed subscribe means the relay could not load state: reconnecting retries it.
    this.request(frame).catch(() => this.ws?.close());
  }

  /** Routes ack/error/stream frames to their pending request; true when consumed. */
  private settle(frame: ServerFrame): boolean {
    const id = 'id' in frame ? frame.id : undefined;
    const entry = id ? this.pending.get(id) : undefined;
    // A stray ack is nobody's business; a stray error still reaches the store (shown to the person).
    if (!id || !entry) return frame.type === 'ack';
    if (frame.type === 'ack') {
      this.finish(id);
      entry.resolve(frame.result);
    } else if (frame.type === 'error') {
      this.finish(id);
      entry.reject(toClientError(frame.error));
    } else {
      clearTimeout(entry.timer);
      entry.timer = this.expire(id, entry.timeoutMs);
      entry.onFrame?.(frame);
    }
    return true;
  }

  /** A frame that failed validation but still names a pending id must still settle it. */
  private settleLoose(raw: unknown): void {
    if (!raw || typeof raw !== 'object') return;
    const { id, type, result, error } = raw as { id?: unknown; type?: unknown; result?: unknown; error?: unknown };
    const entry = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!entry || typeof id !== 'string') return;
    if (type === 'ack') {
      this.finish(id);
      entry.resolve(result);
    } else if (type === 'error') {
      this.finish(id);
      entry.reject(toClientError(error));
    }
  }

  private expire(id: string, ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const entry = this.pending.get(id);
      if (!entry) return;
      this.pending.delete(id);
      entry.reject(clientError('E_TIMEOUT'));
    }, ms);
  }

  private finish(id: string): void {
    const entry = this.pending.get(id);
    if (entry) clearTimeout(entry.timer);
    this.pending.delete(id);
  }

  private failPending(): void {
    for (const [id, entry] of [...this.pending]) {
      this.finish(id);
      entry.reject(clientError('E_OFFLINE'));
    }
  }

  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    this.failPending();
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
  }

  // Retries go on while the browser says it is offline: `navigator.onLine` only
  // means "no network interface", and a relay on localhost or the LAN may still answer.
  private scheduleRetry(): void {
    if (!this.running) return;
    this.failures += 1;
    this.setState(this.failState());
    const delay = backoffDelay(this.failures, this.opts.backoff, (this.opts.random ?? Math.random)());
    this.clearRetry();
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  private failState(): ConnectionState {
    return !this.networkUp || this.failures >= OFFLINE_AFTER_FAILURES ? 'offline' : 'reconnecting';
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private setState(state: ConnectionState, error?: ClientError): void {
    if (state === this.state && !error) return;
    this.state = state;
    this.opts.onState(state, error);
  }
}

/** Capped exponential backoff with jitter: between half and all of min(max, base·2^(n-1)). */
export function backoffDelay(failures: number, backoff = { baseMs: 500, maxMs: 15_000 }, random = Math.random()): number {
  const capped = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 16));
  return capped * (0.5 + random / 2);
}

/** The socket URL on the page's own origin: ws(s)://host/ws. */
export function relaySocketUrl(origin: string): string {
  const url = new URL('/ws', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
