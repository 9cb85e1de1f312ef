// Push subscriptions and preferences per device (PUSH-2), relay-private in
// <dataDir>/push/subscriptions.json (mode 0600, atomic writes).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../bus/fs-atomic';
import { PUSH_KINDS, type PushKind, type PushPrefs, type PushSubscriptionJSON } from '../../protocol/wire/views';

export interface DevicePush {
  subscription: PushSubscriptionJSON;
  prefs: PushPrefs;
  updatedAt: string;
}

export const DEFAULT_PREFS: PushPrefs = {
  kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, true])) as Record<PushKind, boolean>,
  dnd: null,
};

export class PushStore {
  private readonly file: string;
  private entries: Map<string, DevicePush>;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'push', 'subscriptions.json');
    this.entries = new Map(Object.entries(readJson(this.file)));
  }

  get(deviceId: string): DevicePush | undefined {
    return this.entries.get(deviceId);
  }

  all(): [string, DevicePush][] {
    return [...this.entries];
  }

  set(deviceId: string, subscription: PushSubscriptionJSON, prefs: PushPrefs): void {
    this.entries.set(deviceId, { subscription, prefs, updatedAt: new Date().toISOString() });
    this.save();
  }

  setPrefs(deviceId: string, prefs: PushPrefs): boolean {
    const entry = this.entries.get(deviceId);
    if (!entry) return false;
    this.entries.set(deviceId, { ...entry, prefs, updatedAt: new Date().toISOString() });
    this.save();
    return true;
  }

  delete(deviceId: string): boolean {
    const had = this.entries.delete(deviceId);
    if (had) this.save();
    return had;
  }

  /** Drops a subscription the push service reported gone, unless it was replaced meanwhile. */
  deleteEndpoint(deviceId: string, endpoint: string): void {
    if (this.entries.get(deviceId)?.subscription.endpoint === endpoint) this.delete(deviceId);
  }

  private save(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.entries), null, 1) + '\n', 0o600);
  }
}

function readJson(file: string): Record<string, DevicePush> {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    return value && typeof value === 'object' ? value : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read push subscriptions at ${file}: ${(error as Error).message}`);
  }
}
