// The home's list of member machines and its one-time join codes (FLEET-1,
// FLEET-6), shared by the CLI and a running relay through private files.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import { JOIN_CODE_TTL_MS, type MachineRecord, MachinesFile } from '../../protocol/wire/fleet';
import { pruneExpiredCodes, readJsonFile, writePrivateFile } from '../devices/files';
import { loadMachineKey } from './keys';

const fleetDir = (dataDir: string) => path.join(dataDir, 'fleet');
const machinesFile = (dataDir: string) => path.join(fleetDir(dataDir), 'machines.json');
const joinDir = (dataDir: string) => path.join(fleetDir(dataDir), 'join');
const codeFile = (dataDir: string, secret: string) => path.join(joinDir(dataDir), crypto.createHash('sha256').update(secret).digest('hex'));

/**
 * `commandr machines add`: a one-time code `<secret>.<home key fingerprint>`, valid 10 minutes, stored only hashed;
 * the codes whose time is up (and a dead process's claimed files) are forgotten first.
 * `name`, when given, is what the machine that spends it is called, whatever name it asks for (FLEET-2).
 */
export function createJoinCode(dataDir: string, name: string | undefined, now = Date.now()): { code: string; expiresAt: number; fingerprint: string } {
  const { fingerprint } = loadMachineKey(dataDir);
  // Never a code that starts with '-' (1 in 64 draws): `commandr join <url> <code>` and shells take it for an option.
  let secret: string;
  do secret = crypto.randomBytes(32).toString('base64url');
  while (secret.startsWith('-'));
  const expiresAt = now + JOIN_CODE_TTL_MS;
  pruneExpiredCodes(joinDir(dataDir), now);
  writePrivateFile(codeFile(dataDir, secret), JSON.stringify({ name, expiresAt }));
  return { code: `${secret}.${fingerprint}`, expiresAt, fingerprint };
}

/** Redeems a join secret once (claim by rename, so racing joins cannot both win); returns the name it was made for, if any. */
export function redeemJoinSecret(dataDir: string, secret: string, now = Date.now()): string | undefined {
  const file = codeFile(dataDir, secret);
  const claimed = `${file}.redeemed-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, claimed);
  } catch {
    throw new CommandrError('E_PAIRING_CODE', 'this join code is unknown, expired or already used; run `commandr machines add` on the home again');
  }
  try {
    const record = JSON.parse(fs.readFileSync(claimed, 'utf8')) as { name?: unknown; expiresAt?: unknown };
    if (typeof record.expiresAt !== 'number' || record.expiresAt < now || (record.name !== undefined && typeof record.name !== 'string')) {
      throw new CommandrError('E_PAIRING_CODE', 'this join code has expired; run `commandr machines add` on the home again');
    }
    return record.name;
  } finally {
    fs.rmSync(claimed, { force: true });
  }
}

export function listMachines(dataDir: string): MachineRecord[] {
  const parsed = MachinesFile.safeParse(readJsonFile(machinesFile(dataDir)) ?? { machines: [] });
  return parsed.success ? parsed.data.machines : [];
}

export function addMachine(dataDir: string, record: MachineRecord): void {
  const machines = listMachines(dataDir).filter((m) => m.key !== record.key);
  writePrivateFile(machinesFile(dataDir), JSON.stringify({ machines: [...machines, record] }, null, 2) + '\n');
}

/** Forgets a machine: its key no longer authenticates, a running home closes its link (FLEET-6). */
export function removeMachine(dataDir: string, id: string): boolean {
  const machines = listMachines(dataDir);
  const kept = machines.filter((m) => m.id !== id);
  if (kept.length === machines.length) return false;
  writePrivateFile(machinesFile(dataDir), JSON.stringify({ machines: kept }, null, 2) + '\n');
  return true;
}

/**
 * The name a joining machine gets: `wanted` unless another machine (one with another key) or the home is already
 * called that, then `wanted-2`, `wanted-3`…, so a member can never pass for another machine by name (FLEET-2).
 */
export function freeMachineName(dataDir: string, wanted: string, key: string, home: string): string {
  const taken = new Set([home, ...listMachines(dataDir).filter((m) => m.key !== key).map((m) => m.name)]);
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const name = `${wanted.slice(0, 62 - String(n).length)}-${n}`;
    if (!taken.has(name)) return name;
  }
}

export function newMachineId(): string {
  return `m-${crypto.randomBytes(8).toString('hex')}`;
}
