// The relay's push service (PUSH-n): keeps VAPID keys and per-device
// subscriptions, decides who gets which notification, and sends it.
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import type { PushPayload } from '../../protocol/wire/push';
import type { PushPrefs, PushSubscriptionJSON } from '../../protocol/wire/views';
import { PushSender, type SendOutcome } from './sender';
import { Collapser, inDoNotDisturb } from './quiet';
import { DEFAULT_PREFS, PushStore } from './store';
import type { PushTriggers } from './triggers';
import { loadOrCreateVapid, type VapidKeys } from './vapid';

export interface PushServiceOptions {
  dataDir: string;
  /** True while the device has the app open and visible: it gets the live update instead. */
  isVisible: (deviceId: string) => boolean;
  /** False for a device the relay no longer knows (revoked while it was down). Default: all paired. */
  isPaired?: (deviceId: string) => boolean;
  /** Extra CA for the push service's TLS (default: $COMMANDR_PUSH_CA, a PEM file path). */
  ca?: string | Buffer;
  /** At most one notification per tag per device in this window (default 4 s). */
  collapseMs?: number;
  attempts?: number;
  backoffMs?: number;
  now?: () => number;
}

export interface Delivery {
  deviceId: string;
  payload: PushPayload;
  outcome: SendOutcome;
}

/** Emits `delivery` (Delivery) after every send, and `error` never: failures are outcomes. */
export class PushService extends EventEmitter {
  readonly vapid: VapidKeys;
  private readonly store: PushStore;
  private readonly sender: PushSender;
  private readonly collapser: Collapser<PushPayload>;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly now: () => number;
  /** The relay's event sources feeding `notify` (set by startPush). */
  triggers: PushTriggers | undefined;

  constructor(private readonly opts: PushServiceOptions) {
    super();
    this.now = opts.now ?? Date.now;
    this.vapid = loadOrCreateVapid(opts.dataDir);
    this.store = new PushStore(opts.dataDir);
    const caFile = process.env.COMMANDR_PUSH_CA;
    this.sender = new PushSender({
      vapid: this.vapid,
      ca: opts.ca ?? (caFile ? fs.readFileSync(caFile) : undefined),
      attempts: opts.attempts,
      backoffMs: opts.backoffMs,
    });
    this.collapser = new Collapser(opts.collapseMs ?? 4000, (key, payload) => this.deliver(key.slice(0, key.indexOf('\n')), payload), this.now);
  }

  get publicKey(): string {
    return this.vapid.publicKey;
  }

  subscribe(deviceId: string, subscription: PushSubscriptionJSON, prefs: PushPrefs = DEFAULT_PREFS): void {
    this.store.set(deviceId, subscription, prefs);
  }

  setPrefs(deviceId: string, prefs: PushPrefs): boolean {
    return this.store.setPrefs(deviceId, prefs);
  }

  prefs(deviceId: string): PushPrefs | null {
    return this.store.get(deviceId)?.prefs ?? null;
  }

  hasDevice(deviceId: string): boolean {
    return this.store.get(deviceId) !== undefined;
  }

  /** Revoked or unsubscribed: its subscription and anything queued for it are gone. */
  forgetDevice(deviceId: string): void {
    this.store.delete(deviceId);
    this.collapser.forget(`${deviceId}\n`);
  }

  /** Sends `payload` to every subscribed device that wants this kind now. */
  notify(payload: PushPayload): void {
    for (const [deviceId, entry] of this.store.all()) {
      if (entry.prefs.kinds[payload.kind] === false) continue;
      if (inDoNotDisturb(entry.prefs, this.now())) continue;
      if (this.opts.isVisible(deviceId)) continue;
      if (this.opts.isPaired && !this.opts.isPaired(deviceId)) continue;
      this.collapser.push(`${deviceId}\n${payload.tag}`, payload);
    }
  }

  /** Resolves when every send started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    await this.triggers?.idle();
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  close(): void {
    this.triggers?.close();
    this.collapser.close();
    this.sender.close();
  }

  private deliver(deviceId: string, payload: PushPayload): void {
    const entry = this.store.get(deviceId);
    if (!entry) return;
    const p = this.sender.send(entry.subscription, payload).then((outcome) => {
      if (!outcome.ok && outcome.gone) this.store.deleteEndpoint(deviceId, entry.subscription.endpoint);
      this.emit('delivery', { deviceId, payload, outcome } satisfies Delivery);
    });
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }
}
