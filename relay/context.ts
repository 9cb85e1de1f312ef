// RelayServices: everything a handler may use, built once by server.ts. Each
// feature adds its own optional field here and constructs it there with one line.
import type { ServerFrame } from '../protocol/wire/frames';
import type { PushPayload } from '../protocol/wire/push';
import type { DeviceStore } from './devices/store';
import type { LiveStore } from './live/store';
import type { CheckResults } from './live/checks';
import type { Logger, ResolvedOptions } from './options';
import type { Transcribers } from './transcribe/run';

/** What a broadcast filter may look at: who is on the other end and whether the app is visible. */
export interface ClientInfo {
  readonly device: { readonly id: string; readonly name: string };
  /** Reported by the app with `client.visibility`; true until told otherwise. */
  visible: boolean;
  /** Per-feature state a handler keeps on a connection (e.g. which repos it subscribed to). */
  readonly state: Map<string, unknown>;
}

export interface SendOptions {
  /** Ephemeral frames (live telemetry, output chunks) may be dropped for a lagging client. */
  ephemeral?: boolean;
}

/** A feature service; `close()` runs when the relay stops. */
export interface Service {
  close?(): unknown;
}

export interface RelayServices {
  readonly dataDir: string;
  readonly options: ResolvedOptions;
  readonly devices: DeviceStore;
  readonly live: LiveStore;
  readonly log: Logger;
  /** Sends to every authenticated client (that `filter` accepts). */
  broadcast(frame: ServerFrame, filter?: (client: ClientInfo) => boolean, options?: SendOptions): void;
  /** Sends to every open socket of one device. */
  sendToDevice(deviceId: string, frame: ServerFrame, options?: SendOptions): void;
  /** Authenticated clients currently connected. */
  clients(): ClientInfo[];
  // Feature services, each constructed in server.ts by its owner.
  hub?: Service;
  commanders?: Service;
  jobs?: Service;
  push?: Service & { forgetDevice?(deviceId: string): unknown; hasDevice?(deviceId: string): boolean; notify?(payload: PushPayload): void };
  permissions?: Service;
  /** Agent questions and action approvals (relay/questions). */
  questions?: Service;
  /** Latest check results per task (relay/live/checks.ts). */
  checks?: CheckResults;
  /** The voice transcribers running now (relay/transcribe, VOICE-5). */
  transcribers?: Transcribers;
}
