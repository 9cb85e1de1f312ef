// Paired devices (DEV-n): <dataDir>/devices.json holds each device's name and
// public key. The relay and the CLI both edit it; the relay notices changes made
// by another process (watch + stat) and reports removed devices as 'revoked'.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EventEmitter } from 'node:events';
import * as z from 'zod/mini';
import { CommandrError } from '../../protocol/wire/errors';
import type { DeviceView } from '../../protocol/wire/views';
import type { PairRequest } from '../../protocol/wire/http';
import { readJsonFile, withFileLock, writePrivateFile } from './files';
import { DEVICE_NAME_RULE, isDeviceName } from '../../protocol/wire/device-name';

export const DEVICE_ID_PATTERN = /^d-[0-9a-f]{16}$/;

const DeviceRecord = z.object({
  id: z.string().check(z.regex(DEVICE_ID_PATTERN)),
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  publicKey: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
  createdAt: z.string(),
  lastSeenAt: z.nullable(z.string()),
  /** OWNER-1: set on the first paired device and by `commandr devices owner <id>`. */
  owner: z.optional(z.boolean()),
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;
const DevicesFile = z.object({
  version: z.literal(1),
  devices: z.array(DeviceRecord),
  /**
   * OWNER-1: written by every version that marks owners. With it, only devices marked
   * `owner` are owners, so after the owner leaves there is none until the person names
   * one at the machine (OWNER-2); without it (a file from before owners) the earliest
   * paired device is.
   */
  ownerChosen: z.optional(z.boolean()),
});

export interface DeviceStoreEvents {
  revoked: [id: string];
}

/** DEV-4: how often at most a device's last-seen time is written to devices.json. */
export const SEEN_WRITE_MS = 10 * 60_000;

export class DeviceStore extends EventEmitter<DeviceStoreEvents> {
  readonly file: string;
  private devices = new Map<string, DeviceRecord>();
  private ownerChosen = false;
  private keys = new Map<string, crypto.KeyObject>();
  /** When each device's last-seen time was last written (DEV-4). */
  private seenWritten = new Map<string, number>();
  private stamp = '';
  private watcher: fs.FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(readonly dataDir: string) {
    super();
    this.file = path.join(dataDir, 'devices.json');
    this.refresh();
  }

  /** Re-reads devices.json if it changed on disk; emits 'revoked' for devices that disappeared. */
  refresh(): void {
    const stamp = fileStamp(this.file);
    if (stamp === this.stamp) return;
    const parsed = this.read();
    const before = this.devices;
    this.devices = new Map(parsed.devices.map((d) => [d.id, { ...d, lastSeenAt: before.get(d.id)?.lastSeenAt ?? d.lastSeenAt }]));
    this.ownerChosen = parsed.ownerChosen === true;
    this.stamp = stamp;
    for (const id of before.keys()) {
      if (!this.devices.has(id)) {
        this.keys.delete(id);
        this.emit('revoked', id);
      }
    }
  }

  private read(): z.infer<typeof DevicesFile> {
    let raw: unknown;
    try {
      raw = readJsonFile(this.file);
    } catch (error) {
      throw new Error(`${this.file} is not JSON (${(error as Error).message}); fix or remove it (removing unpairs every device)`);
    }
    if (raw === undefined) return { version: 1, devices: [] };
    const parsed = DevicesFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${this.file} is not a valid devices file: ${issue?.path.join('.') || '(file)'}: ${issue?.message}`);
    }
    return parsed.data;
  }

  list(): DeviceRecord[] {
    this.refresh();
    return [...this.devices.values()];
  }

  get(id: string): DeviceRecord | undefined {
    this.refresh();
    return this.devices.get(id);
  }

  /** The device's verification key, or undefined for an unknown or revoked device. */
  publicKey(id: string): crypto.KeyObject | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    let key = this.keys.get(id);
    if (!key) {
      key = crypto.createPublicKey({ key: record.publicKey, format: 'jwk' });
      this.keys.set(id, key);
    }
    return key;
  }

  add(name: string, publicKey: PairRequest['publicKey']): DeviceRecord {
    name = checkName(name);
    const jwk = { kty: 'EC' as const, crv: 'P-256' as const, x: publicKey.x, y: publicKey.y };
    try {
      crypto.createPublicKey({ key: jwk, format: 'jwk' });
    } catch {
      throw new CommandrError('E_BAD_FRAME', 'publicKey is not a valid P-256 point');
    }
    const record: DeviceRecord = {
      id: `d-${crypto.randomBytes(8).toString('hex')}`, name, publicKey: jwk, createdAt: new Date().toISOString(), lastSeenAt: null,
    };
    this.mutate((devices) => {
      if (devices.size === 0) record.owner = true; // OWNER-1: the first device paired owns the relay
      devices.set(record.id, record);
    });
    return this.devices.get(record.id) ?? record;
  }

  rename(id: string, name: string): DeviceRecord {
    name = checkName(name);
    this.mutate((devices) => {
      const record = devices.get(id);
      if (!record) throw new CommandrError('E_NOT_FOUND', `no device ${id}`);
      devices.set(id, { ...record, name });
    });
    return this.devices.get(id)!;
  }

  /**
   * OWNER-1: a device marked owner. Only in a devices.json from before owners (no
   * `ownerChosen`, no device marked) is the earliest paired device the owner; once this
   * version has written the file, a relay whose owner left has no owner (never the next phone).
   */
  isOwner(id: string): boolean {
    return impliedOwners(this.devices, this.ownerChosen).has(id);
  }

  /** OWNER-2: marks a device as an owner (from the relay's machine: `commandr devices owner <id>`). */
  markOwner(id: string): void {
    this.mutate((devices) => {
      const record = devices.get(id);
      if (!record) throw new CommandrError('E_NOT_FOUND', `no device ${id}`);
      devices.set(id, { ...record, owner: true });
    });
  }

  /** Removes the device; listeners of 'revoked' close its sockets and forget its push subscriptions. */
  revoke(id: string): void {
    this.mutate((devices) => {
      if (!devices.delete(id)) throw new CommandrError('E_NOT_FOUND', `no device ${id}`);
    });
  }

  /**
   * DEV-4: remembers when a device was last seen — in memory at once, and in devices.json
   * the first time this relay sees it and then at most every SEEN_WRITE_MS — so after a
   * restart, and in `commandr devices`, a device that connected is never "never seen".
   * A failed write keeps the time in memory and never refuses the connection.
   */
  touch(id: string, now = Date.now()): void {
    const record = this.devices.get(id);
    if (!record) return;
    record.lastSeenAt = new Date(now).toISOString();
    if (now - (this.seenWritten.get(id) ?? -Infinity) < SEEN_WRITE_MS) return;
    this.seenWritten.set(id, now);
    try {
      this.mutate((devices) => {
        const current = devices.get(id);
        if (current) devices.set(id, { ...current, lastSeenAt: record.lastSeenAt });
      });
    } catch {
      // kept in memory; written with the next change
    }
  }

  view(record: DeviceRecord, currentId: string | null, push = false): DeviceView {
    return {
      id: record.id, name: record.name, createdAt: record.createdAt, lastSeenAt: record.lastSeenAt, current: record.id === currentId, push,
      owner: this.isOwner(record.id),
    };
  }

  /** Follows edits by other processes: fs.watch on the data dir, plus a cheap stat poll it can miss. */
  watch(pollMs = 1000): void {
    if (this.watcher || this.poll) return;
    const check = () => {
      try {
        this.refresh();
      } catch {
        /* a half-edited or unreadable file: keep the last good state and look again */
      }
    };
    try {
      this.watcher = fs.watch(this.dataDir, (_event, name) => {
        if (name === null || name === 'devices.json') check();
      });
      this.watcher.on('error', () => undefined);
    } catch {
      /* fs.watch unsupported here: the poll still works */
    }
    this.poll = setInterval(check, pollMs);
    this.poll.unref();
  }

  close(): void {
    this.watcher?.close();
    if (this.poll) clearInterval(this.poll);
    this.watcher = undefined;
    this.poll = undefined;
  }

  /** Reads the file, changes it and writes it back under the file's lock (DEV-2): another process's change is never lost. */
  private mutate(change: (devices: Map<string, DeviceRecord>) => void): void {
    withFileLock(this.file, () => {
      this.refresh();
      const next = new Map(this.devices);
      // OWNER-1: the first write of a file from before owners marks its implied owner (before the
      // change, so revoking it leaves no owner) and records that owners are chosen from now on.
      for (const id of this.ownerChosen ? [] : impliedOwners(next, false)) next.set(id, { ...next.get(id)!, owner: true });
      change(next);
      writePrivateFile(this.file, `${JSON.stringify({ version: 1, ownerChosen: true, devices: [...next.values()] }, null, 2)}\n`);
    });
    this.refresh();
  }
}

/** OWNER-1: the marked devices; in a file from before owners with none marked, the earliest paired one. */
function impliedOwners(devices: Map<string, DeviceRecord>, ownerChosen: boolean): Set<string> {
  const all = [...devices.values()];
  const marked = all.filter((d) => d.owner === true);
  if (ownerChosen || marked.length > 0) return new Set(marked.map((d) => d.id));
  const earliest = all.reduce<DeviceRecord | undefined>((a, d) => (!a || d.createdAt < a.createdAt ? d : a), undefined);
  return new Set(earliest ? [earliest.id] : []);
}

/**
 * DEVNAME-1: every way of setting a name ends here, so none can store one that drives a
 * terminal or fakes a line. Names already in devices.json are read as they are (the CLI
 * escapes them when it prints).
 */
function checkName(name: string): string {
  if (!isDeviceName(name)) throw new CommandrError('E_BAD_FRAME', `name ${DEVICE_NAME_RULE}`);
  return name.trim();
}

function fileStamp(file: string): string {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.size}`;
  } catch {
    return 'absent';
  }
}
