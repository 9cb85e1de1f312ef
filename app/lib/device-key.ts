// This device's identity: a non-extractable ECDSA P-256 key pair made with WebCrypto
// and kept in IndexedDB (never leaves the browser). Works in a page and in the worker.
//
// API:
//   interface DeviceKeyRecord { deviceId, name, privateKey (CryptoKey, non-extractable), publicJwk, pairedAt }
//   createDeviceKey()              → { privateKey, publicJwk } (public half as {kty,crv,x,y} for POST /api/pair)
//   loadDevice()                   → DeviceKeyRecord | null
//   saveDevice(record)             → stores it (replaces any previous pairing)
//   renameStoredDevice(name)       → updates the stored name (after a device.rename ack)
//   clearDevice()                  → forgets the pairing (after revoke / E_UNAUTHORIZED)
import { clearPrepaint } from './prepaint';
import { openDb } from './db';

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface DeviceKeyRecord {
  deviceId: string;
  name: string;
  privateKey: CryptoKey;
  publicJwk: PublicJwk;
  pairedAt: string;
}

const ALGORITHM: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const RECORD_KEY = 'device';

export async function createDeviceKey(): Promise<{ privateKey: CryptoKey; publicJwk: PublicJwk }> {
  // extractable=false applies to the private key; the public key is always exportable.
  const pair = await crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (!jwk.x || !jwk.y) throw new Error('WebCrypto returned a public key without coordinates');
  return { privateKey: pair.privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
}

export async function loadDevice(): Promise<DeviceKeyRecord | null> {
  const db = await openDb();
  return (await db.get('keys', RECORD_KEY)) ?? null;
}

export async function saveDevice(record: DeviceKeyRecord): Promise<void> {
  const db = await openDb();
  await db.put('keys', record, RECORD_KEY);
}

export async function renameStoredDevice(name: string): Promise<void> {
  const current = await loadDevice();
  if (current) await saveDevice({ ...current, name });
}

export async function clearDevice(): Promise<void> {
  clearPrepaint();
  const db = await openDb();
  await db.delete('keys', RECORD_KEY);
}
